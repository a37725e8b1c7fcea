import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainQueries, type PlanNode, planNodes } from '../../test/harness/explain.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import type { Database } from '../client.ts';
import { currentAccount, historicalAccount } from './accounts.ts';
import { listAccounts } from './accounts-list.ts';
import { currentBalances, snapshotBalances } from './balances.ts';
import { listTransactions } from './transactions-list.ts';

/**
 * `GET /api/v1/accounts/{id}` for a hot account: the fee collector 0.0.98 takes a share of every one of a million
 * transactions (the reference's known timeout). Each statement the route issues must read a bounded number of
 * rows, whatever the account's history.
 */

const TRANSACTIONS = 1_000_000;
const START = 1_700_000_000_000_000_000n;
/** One transaction every 10 ms; a balance snapshot every 1,000,000 seconds (about 11.6 days). */
const STEP = 10_000_000n;
const SNAPSHOT_STEP = 1_000_000_000_000_000n;
const FEE_COLLECTOR = 98n;
const PAYERS = 997;
/** The tables seeded big (the others are empty, and the planner may read an empty table whole). */
const BIG_TABLES = ['transaction', 'crypto_transfer', 'account_balance'];

let db: TestDatabase;

async function planOf(run: (db: Database) => Promise<unknown>): Promise<PlanNode[]> {
  const [plan] = await explainQueries(db.sql, run);
  if (!plan) throw new Error('no statement was run');
  return planNodes(plan);
}

/** No big table is read whole, and no node produces more than `maxRows` rows over all its loops. */
function expectBounded(plan: PlanNode[], maxRows: number) {
  const seqScans = plan.filter((n) => n['Node Type'] === 'Seq Scan' && BIG_TABLES.includes(n['Relation Name'] ?? ''));
  expect(seqScans.map((n) => n['Relation Name'])).toEqual([]);
  const rows = plan.map((n) => (n['Actual Rows'] ?? 0) * (n['Actual Loops'] ?? 1));
  expect(Math.max(...rows)).toBeLessThanOrEqual(maxRows);
}

beforeAll(async () => {
  db = await createTestDatabase();
  await db.sql.query(`
    insert into entity (id, num, realm, shard, type, memo, timestamp_range, balance, balance_timestamp, deleted)
    select id, id, 0, 0, 'ACCOUNT', '', '[1,)', 1000, 1, false
      from (select 98 as id union all select 1000 + g from generate_series(0, ${PAYERS}) g) ids`);
  await db.sql.query(`
    insert into transaction (consensus_timestamp, type, result, payer_account_id, valid_start_ns, node_account_id,
                             charged_tx_fee, max_fee, valid_duration_seconds, nonce, scheduled, index)
    select ${START} + g * ${STEP}, 14, 22, 1000 + g % ${PAYERS}, ${START} + g * ${STEP} - 1000, 3, 100, 1000, 120,
           0, false, 1
      from generate_series(1::bigint, ${TRANSACTIONS}) g`);
  await db.sql.query(`
    insert into crypto_transfer (entity_id, consensus_timestamp, amount, payer_account_id, is_approval)
    select account, ${START} + g * ${STEP}, amount, 1000 + g % ${PAYERS}, false
      from generate_series(1::bigint, ${TRANSACTIONS}) g,
           lateral (values (1000 + g % ${PAYERS}, -100), (3, 90), (${FEE_COLLECTOR}, 10)) as t(account, amount)`);
  // the treasury and the fee collector in every snapshot
  await db.sql.query(`
    insert into account_balance (consensus_timestamp, account_id, balance)
    select ${START} + g * ${SNAPSHOT_STEP}, account, 1000 + g
      from generate_series(0::bigint, 9) g, (values (2), (${FEE_COLLECTOR})) as a(account)`);
  await db.sql.query('analyze');
}, 600_000);

afterAll(async () => {
  await db?.drop();
});

describe(`/accounts/{id} plans for a fee collector in ${TRANSACTIONS.toLocaleString('en')} transactions`, () => {
  it('seeded the fee collector into every transaction', async () => {
    const { rows } = await db.sql.query(`select count(*)::int as n from crypto_transfer where entity_id = 98`);
    expect(rows[0].n).toBe(TRANSACTIONS);
  });

  it("pages the fee collector's transactions by walking the transfers by time, not by reading them all", async () => {
    const timestamp = { lower: null, upper: null, eq: null, ne: [] };
    for (const order of ['desc', 'asc'] as const) {
      const plan = await planOf((d) =>
        listTransactions(d, {
          accounts: [{ operator: 'eq', account: FEE_COLLECTOR }],
          types: [],
          timestamp,
          order,
          limit: 100,
          precedingTypes: [11, 15],
        }),
      );
      expectBounded(plan, 1_000);
    }
  });

  it('reads the account, its stake and token balances by key', async () => {
    expectBounded(await planOf((d) => currentAccount(d, { id: FEE_COLLECTOR, tokenLimit: 1000 })), 10);
  });

  it('reads the account as of a timestamp through the snapshot index of one month', async () => {
    const at = START + 5n * SNAPSHOT_STEP + 1n;
    const plan = await planOf((d) =>
      historicalAccount(d, {
        id: FEE_COLLECTOR,
        tokenLimit: 1000,
        timestamp: { lower: null, upper: at, eq: [], ne: [] },
        snapshot: { lower: at - 60n * 86_400_000_000_000n, upper: at, ne: [] },
      }),
    );
    expectBounded(plan, 20);
  });

  it('lists accounts and balances by id, now and at a snapshot, a page at a time', async () => {
    const page = { ids: [], balances: [], publicKeys: [], order: 'asc', limit: 25, tokenLimit: 50 } as const;
    expectBounded(await planOf((d) => listAccounts(d, { ...page, withBalance: true })), 100);
    expectBounded(await planOf((d) => currentBalances(d, page)), 100);
    const at = START + 9n * SNAPSHOT_STEP;
    const snapshot = { lower: at - 60n * 86_400_000_000_000n, upper: at, ne: [] };
    expectBounded(await planOf((d) => snapshotBalances(d, { ...page, snapshot, publicKey: undefined })), 100);
  });
});
