import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecordFile } from '../decode/record-file.ts';
import { decodeRecordItem, type RecordItem } from '../decode/record-item.ts';
import { RECORDSTREAMS } from '../testing/fixtures.ts';
import { ethereumTransaction } from './ethereum.ts';
import { FileRows } from './file-rows.ts';
import { deriveRecordFile } from './record-file.ts';

describe('EthereumTransaction items (eth-0.26.0 fixture)', () => {
  it('become ethereum_transaction rows with the decoded signed transaction and a contract result', () => {
    const name = '2022-04-28T15_28_34.014499000Z.rcd';
    const parsed = parseRecordFile(name, readFileSync(path.join(RECORDSTREAMS, 'eth-0.26.0/record0.0.3', name)));
    const derived = deriveRecordFile(parsed, { index: 0n, loadStart: 0n, sidecars: [] });
    const ethereum = parsed.items.map(decodeRecordItem).filter((i) => i.type === 50);
    const rows = derived.rows.rows('ethereum_transaction');
    expect(rows).toHaveLength(ethereum.length);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect((row.hash as Uint8Array).length).toBe(32);
      expect((row.signature_r as Uint8Array).length).toBeGreaterThan(0);
      expect([0, 1, 2]).toContain(row.type);
    }
    const results = derived.rows.rows('contract_result').map((r) => r.consensus_timestamp);
    for (const item of ethereum) expect(results).toContain(item.consensusTimestamp);
    // The transaction's entity is the contract of its function result, as for the importer.
    const transactions = derived.rows.rows('transaction').filter((t) => t.type === 50);
    const contractAt = new Map(derived.rows.rows('contract_result').map((r) => [r.consensus_timestamp, r.contract_id]));
    expect(transactions.length).toBe(ethereum.length);
    for (const t of transactions) expect(t.entity_id).toBe(contractAt.get(t.consensus_timestamp as bigint) || null);
  });

  it('write no ethereum_transaction row for data that is not a signed transaction, and do not fail the file', () => {
    const item = {
      consensusTimestamp: 700n,
      successful: false,
      payerAccountId: 1000n,
      bodyName: 'ethereumTransaction',
      body: { ethereumTransaction: { ethereum_data: new Uint8Array([0xf8, 0xff, 0x01]) } },
      record: {},
    } as unknown as RecordItem;
    const rows = new FileRows();
    ethereumTransaction({ item, rows, transaction: {}, hapiMinor: 50 });
    expect(rows.rows('ethereum_transaction')).toEqual([]);
    expect(rows.changes.size).toBe(0);
  });
});
