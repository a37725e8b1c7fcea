import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/harness/test-database.ts';
import { ingestItems, rowsOf } from '../testing/ingest-records.ts';

const CONTRACT_REVERT_EXECUTED = 33;
const TOKEN = 5000;
const HOLDER = 1600;
const RECEIVER = 1601;

const db = useTestDatabase();

describe('a child record under a failed parent', () => {
  it('counts as failed though it reports SUCCESS: its token transfers and associations are not applied', async () => {
    const transfers = [
      {
        token: { tokenNum: TOKEN },
        transfers: [
          { accountID: { accountNum: HOLDER }, amount: -5 },
          { accountID: { accountNum: RECEIVER }, amount: 5 },
        ],
      },
    ];
    await ingestItems(db.sql, [
      {
        at: 100,
        status: CONTRACT_REVERT_EXECUTED,
        body: { contractCall: { contractID: { contractNum: 2000 }, gas: 50_000 } },
        record: { contractCallResult: { contractID: { contractNum: 2000 }, gasUsed: 40_000 } },
      },
      {
        at: 100,
        nanos: 1,
        nonce: 1,
        parent: { at: 100 },
        body: { cryptoTransfer: {} },
        record: { tokenTransferLists: transfers },
      },
      {
        at: 100,
        nanos: 2,
        nonce: 2,
        parent: { at: 100 },
        body: { tokenAssociate: { account: { accountNum: RECEIVER }, tokens: [{ tokenNum: TOKEN + 1 }] } },
      },
    ]);
    expect(await rowsOf(db.sql, 'select count(*)::int as n from token_transfer')).toEqual([{ n: 0 }]);
    expect(await rowsOf(db.sql, 'select count(*)::int as n from token_account')).toEqual([{ n: 0 }]);
    // The rows every transaction writes stay, with the status the record reports.
    expect(await rowsOf(db.sql, 'select result from transaction order by consensus_timestamp')).toEqual([
      { result: CONTRACT_REVERT_EXECUTED },
      { result: 22 },
      { result: 22 },
    ]);
  });
});
