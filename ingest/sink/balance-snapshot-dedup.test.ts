import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/harness/test-database.ts';
import { ingestItems, rowsOf } from '../testing/ingest-records.ts';
import { snapshotBalancesIfDue } from './balance-snapshot.ts';

const NS = 1_000_000_000n;
/** 2025-03-10T00:00:00Z */
const START = 1_741_564_800;
const MINUTE = 60;

const db = useTestDatabase();

const transfer = (at: number, account: number, amount: number) => ({
  at,
  body: { cryptoTransfer: {} },
  record: {
    transferList: {
      accountAmounts: [
        { accountID: { accountNum: 2 }, amount: -amount },
        { accountID: { accountNum: account }, amount },
      ],
    },
  },
});

const balances = (at: number) =>
  rowsOf(
    db.sql,
    `select account_id::int as account, balance::int from account_balance
      where consensus_timestamp = ${BigInt(at) * NS} order by account_id`,
  );

describe('a balance snapshot', () => {
  it('waits 2 minutes after the first record file ends, then 15 minutes after the last snapshot', async () => {
    await ingestItems(db.sql, [transfer(START, 1600, 10), transfer(START + 1, 1601, 20)]);
    expect(await snapshotBalancesIfDue(db.sql, BigInt(START + 16 * MINUTE) * NS)).toBe(false);
    expect(await snapshotBalancesIfDue(db.sql, BigInt(START + 18 * MINUTE) * NS)).toBe(true);
    expect(await snapshotBalancesIfDue(db.sql, BigInt(START + 31 * MINUTE) * NS)).toBe(false);
  });

  it('is full as the first of its month, then holds what changed since and the treasury', async () => {
    expect(await balances(START + 18 * MINUTE)).toEqual([
      { account: 2, balance: -30 },
      { account: 1600, balance: 10 },
      { account: 1601, balance: 20 },
    ]);
    await ingestItems(db.sql, [transfer(START + 40 * MINUTE, 1601, 5)]);
    expect(await snapshotBalancesIfDue(db.sql, BigInt(START + 40 * MINUTE) * NS)).toBe(true);
    expect(await balances(START + 40 * MINUTE)).toEqual([
      { account: 2, balance: -35 },
      { account: 1601, balance: 25 },
    ]);
  });

  it('is named and stamped as the importer names its synthetic balance files', async () => {
    expect(
      await rowsOf(
        db.sql,
        `select name, count::int, synthetic, time_offset, load_start > 1000000000000 as millis
           from account_balance_file order by consensus_timestamp`,
      ),
    ).toEqual([
      { name: '2025-03-10T00_18_00Z_Balances.csv', count: 3, synthetic: true, time_offset: 0, millis: true },
      { name: '2025-03-10T00_40_00Z_Balances.csv', count: 2, synthetic: true, time_offset: 0, millis: true },
    ]);
  });
});
