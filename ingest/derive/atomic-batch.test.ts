import { describe, expect, it } from 'vitest';
import { hapi } from '../../proto/hapi.ts';
import type { ParsedRecordFile, RawItem } from '../decode/record-file.ts';
import { parsedRecordFile } from '../testing/parsed-record-file.ts';
import { deriveRecordFile } from './record-file.ts';

const PAYER = 1001;

/** An item as block streams give it (messages); `inner` items carry a batch key and their batch as parent. */
function item(seconds: number, body: Record<string, unknown>, parent?: number): RawItem {
  const types = hapi();
  const transactionID = { accountID: { accountNum: PAYER }, transactionValidStart: { seconds: seconds - 5, nanos: 7 } };
  const bodyBytes = types.TransactionBody.encode(types.TransactionBody.fromObject({ transactionID, ...body })).finish();
  return {
    transaction: types.Transaction.fromObject({ bodyBytes }),
    record: types.TransactionRecord.fromObject({
      consensusTimestamp: { seconds },
      receipt: { status: 22 },
      transactionID,
      ...(parent !== undefined ? { parent_consensus_timestamp: { seconds: parent } } : {}),
    }),
  };
}

function file(items: RawItem[]): ParsedRecordFile {
  return parsedRecordFile(items);
}

describe('an atomic batch', () => {
  const batchKey = { ed25519: new Uint8Array(32).fill(1) };
  const items = [
    item(100, { atomic_batch: {} }),
    item(101, { batch_key: batchKey, cryptoTransfer: {} }, 100),
    item(102, { batch_key: batchKey, cryptoTransfer: {} }, 100),
  ];
  const validStart = (seconds: number) => BigInt(seconds - 5) * 1_000_000_000n + 7n;

  it('lists its inner transactions (payer, valid start) in order on its transaction row', () => {
    const rows = deriveRecordFile(file(items), { index: 1n, loadStart: 0n, sidecars: [] }).rows.rows('transaction');
    const batch = rows.find((r) => r.type === 74);
    expect(batch?.inner_transactions).toEqual([1001n, validStart(101), 1001n, validStart(102)]);
    expect(rows).toHaveLength(3);
  });

  it('writes the same list when rows become COPY text as they are derived', () => {
    const derived = deriveRecordFile(file(items), {
      index: 1n,
      loadStart: 0n,
      sidecars: [],
      columnKinds: new Map(),
    });
    const groups = derived.rows.copies?.tables.get('transaction') ?? [];
    const lines = groups.flatMap((g) => {
      const at = g.columns.indexOf('inner_transactions');
      return g.text
        .bytes()
        .toString()
        .split('\n')
        .slice(0, -1)
        .map((line) => line.split('\t')[at]);
    });
    expect(lines.filter((field) => field !== '\\N')).toEqual([
      `{"1001","${validStart(101)}","1001","${validStart(102)}"}`,
    ]);
    expect(lines).toHaveLength(3);
  });
});
