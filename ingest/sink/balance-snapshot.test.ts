import { beforeEach, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/harness/test-database.ts';
import { balanceFileStem } from '../decode/stream-file-name.ts';
import { snapshotBalancesIfDue } from './balance-snapshot.ts';

const MINUTE = 60_000_000_000n;
/** The first record file's consensus end. */
const FIRST = 1_700_000_000_000_000_000n;

const db = useTestDatabase();

beforeEach(async () => {
  await db.sql.query(
    'truncate account_balance, token_balance, account_balance_file, entity, token_account, record_file',
  );
  await db.sql.query(
    `insert into record_file (name, consensus_start, consensus_end, count, digest_algorithm, file_hash, hash, index,
                              load_start, load_end, prev_hash, version)
     values ('first.rcd', $1, $1, 1, 0, 'f', 'h', 0, 0, 0, 'p', 6)`,
    [FIRST.toString()],
  );
  await db.sql.query(
    `insert into entity (id, num, realm, shard, type, balance, balance_timestamp, deleted, timestamp_range, memo) values
       (2, 2, 0, 0, 'ACCOUNT', 90, 1, false, '[1,)', ''), (1001, 1001, 0, 0, 'CONTRACT', 10, 1, null, '[1,)', ''),
       (1002, 1002, 0, 0, 'ACCOUNT', 0, 1, true, '[1,)', ''), (1003, 1003, 0, 0, 'TOKEN', null, null, false, '[1,)', '')`,
  );
  await db.sql.query(
    `insert into token_account (account_id, token_id, associated, balance, timestamp_range) values
       (2, 1003, true, 5, '[1,)'), (1001, 1003, false, 0, '[1,)')`,
  );
});

describe('historical balance snapshots', () => {
  it('wait the initial delay and the minimum frequency after the first record file', async () => {
    expect(await snapshotBalancesIfDue(db.sql, FIRST + 17n * MINUTE - 1n)).toBe(false);
    expect(await snapshotBalancesIfDue(db.sql, FIRST + 17n * MINUTE)).toBe(true);
    expect(await snapshotBalancesIfDue(db.sql, FIRST + 32n * MINUTE - 1n)).toBe(false);
    expect(await snapshotBalancesIfDue(db.sql, FIRST + 32n * MINUTE)).toBe(true);
  });

  it('come 15 minutes after the newest balance file, when there is one', async () => {
    await db.sql.query(
      `insert into account_balance_file (consensus_timestamp, count, load_start, load_end, name)
       values ($1, 0, 0, 0, 'genesis_Balances.pb.gz')`,
      [(FIRST - 1n).toString()],
    );
    expect(await snapshotBalancesIfDue(db.sql, FIRST + 15n * MINUTE - 2n)).toBe(false);
    expect(await snapshotBalancesIfDue(db.sql, FIRST + 15n * MINUTE - 1n)).toBe(true);
  });

  it("hold every balance, a deleted account's while it changed after the last 30 days' snapshots, and every associated token balance, named and timed as the importer names them", async () => {
    const at = FIRST + 20n * MINUTE + 123_000_000n;
    const before = Date.now();
    await snapshotBalancesIfDue(db.sql, at);
    const accounts = await db.sql.query(
      'select account_id::text, balance::text from account_balance order by account_balance.account_id',
    );
    expect(accounts.rows).toEqual([
      { account_id: '2', balance: '90' },
      { account_id: '1001', balance: '10' },
      { account_id: '1002', balance: '0' },
    ]);
    const tokens = await db.sql.query('select account_id::text, token_id::text, balance::text from token_balance');
    expect(tokens.rows).toEqual([{ account_id: '2', token_id: '1003', balance: '5' }]);
    const file = await db.sql.query(
      'select name, count::int, load_start, load_end, synthetic from account_balance_file',
    );
    expect(file.rows).toEqual([
      {
        name: '2023-11-14T22_33_20.123Z_Balances.csv',
        count: 3,
        load_start: expect.any(String),
        load_end: expect.any(String),
        synthetic: true,
      },
    ]);
    // Milliseconds, as the importer's System.currentTimeMillis().
    expect(Number(file.rows[0].load_start)).toBeGreaterThanOrEqual(before);
  });
});

describe('balance file names', () => {
  it("write the instant as Java's Instant.toString does", () => {
    expect(balanceFileStem(1735689600000000000n)).toBe('2025-01-01T00_00_00Z_Balances');
    expect(balanceFileStem(1615414376075092000n)).toBe('2021-03-10T22_12_56.075092Z_Balances');
    expect(balanceFileStem(1567188900016002001n)).toBe('2019-08-30T18_15_00.016002001Z_Balances');
    expect(balanceFileStem(1567188900100000000n)).toBe('2019-08-30T18_15_00.100Z_Balances');
  });
});
