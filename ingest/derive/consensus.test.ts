import { describe, expect, it } from 'vitest';
import { hapi } from '../../proto/hapi.ts';
import type { RecordItem } from '../decode/record-item.ts';
import { submitMessage } from './consensus.ts';
import type { ItemContext } from './context.ts';
import { FileRows } from './file-rows.ts';

function message(
  version: bigint | undefined,
  chunkInfo?: Record<string, unknown>,
  block: { fromBlockStream: boolean; runningHash: Uint8Array } = {
    fromBlockStream: false,
    runningHash: new Uint8Array(48).fill(1),
  },
) {
  const item = {
    consensusTimestamp: 900n,
    successful: true,
    status: 22,
    payerAccountId: 1001n,
    fromBlockStream: block.fromBlockStream,
    bodyName: 'consensusSubmitMessage',
    body: { consensusSubmitMessage: { topicID: { topicNum: 1800n }, message: Uint8Array.of(1), chunkInfo } },
    record: {
      receipt: {
        topicSequenceNumber: 4n,
        topicRunningHash: block.runningHash,
        ...(version === undefined ? {} : { topicRunningHashVersion: version }),
      },
    },
  } as unknown as RecordItem;
  const ctx: ItemContext = { item, rows: new FileRows(), transaction: {}, hapiMinor: 60 };
  submitMessage(ctx);
  return ctx.rows.rows('topic_message')[0];
}

describe('topic_message', () => {
  it('stores the running hash version as the importer does: NULL for 3, 1 for an unset one, else as given', () => {
    expect([message(3n)?.running_hash_version, message(undefined)?.running_hash_version]).toEqual([null, 1]);
    expect(message(2n)?.running_hash_version).toBe(2);
  });

  it("keeps a chunk's number, total and first transaction id, and never a valid start of its own", () => {
    const initialTransactionID = { accountID: { accountNum: 1001n }, transactionValidStart: { seconds: 5n } };
    const chunked = message(3n, { number: 1, total: 2, initialTransactionID });
    expect(chunked).toMatchObject({ chunk_num: 1, chunk_total: 2, valid_start_timestamp: null, sequence_number: 4n });
    const initial = hapi()
      .root.lookupType('proto.TransactionID')
      .decode(chunked?.initial_transaction_id as Uint8Array)
      .toJSON();
    expect(initial).toMatchObject({ accountID: { accountNum: '1001' }, transactionValidStart: { seconds: '5' } });
    expect(message(3n)).toMatchObject({ chunk_num: null, chunk_total: null, initial_transaction_id: null });
  });

  it("is not written for a block's message without a running hash, as the importer skips it", () => {
    const empty = new Uint8Array();
    expect(message(3n, undefined, { fromBlockStream: true, runningHash: empty })).toBeUndefined();
    expect(message(3n, undefined, { fromBlockStream: false, runningHash: empty })).toBeDefined();
  });
});
