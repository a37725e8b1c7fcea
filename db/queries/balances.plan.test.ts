import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainQueries, type PlanNode, planNodes } from '../../test/harness/explain.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import type { Database } from '../client.ts';
import { historicalAccount } from './accounts.ts';
import { snapshotBalances } from './balances.ts';

/**
 * An account's token balances at a snapshot, among many tokens: 20,000 accounts holding 10 of 2,000 tokens each,
 * two snapshots. With only the reference's indexes, Postgres 18 walked the token-first index once per token id in
 * the system (a skip scan) to find one account's handful of rows; `token_balance__account_timestamp` reads just
 * those rows (docs/performance.md, "SQL fixes").
 */

const ACCOUNTS = 20_000;
const TOKENS = 2_000;
const HELD = 10;
/** 2024-12-01 and 2024-12-15 UTC. */
const MONTH_START = 1_733_011_200_000_000_000n;
const SNAPSHOTS = [MONTH_START, MONTH_START + 14n * 86_400_000_000_000n];
const TREASURY = 2n;
const ACCOUNT = 1_058n;

let db: TestDatabase;

async function planOf(run: (db: Database) => Promise<unknown>): Promise<PlanNode[]> {
  const [plan] = await explainQueries(db.sql, run);
  if (!plan) throw new Error('no statement was run');
  return planNodes(plan);
}

/** The token_balance scans: each on the account-first index, each searching it once per loop. */
function expectAccountWalk(plan: PlanNode[]) {
  const scans = plan.filter((n) => n['Relation Name']?.startsWith('token_balance') && n['Actual Loops'] !== 0);
  expect(scans.length).toBeGreaterThan(0);
  for (const scan of scans) {
    expect(scan['Index Name']).toMatch(/account_id_consensus_timestamp/);
    expect(scan['Index Searches'] ?? 0).toBeLessThanOrEqual(scan['Actual Loops'] ?? 1);
  }
}

beforeAll(async () => {
  db = await createTestDatabase();
  const snapshots = SNAPSHOTS.map((t) => `(${t})`).join(', ');
  await db.sql.query(`
    insert into entity (id, num, realm, shard, type, memo, timestamp_range, balance, balance_timestamp, deleted)
    values (${ACCOUNT}, ${ACCOUNT}, 0, 0, 'ACCOUNT', '', '[1,)', 1000, 1, false)`);
  await db.sql.query(`
    insert into account_balance (consensus_timestamp, account_id, balance)
    select s.t, a, 1000 from (values ${snapshots}) s(t), (values (${TREASURY}), (${ACCOUNT})) as x(a)`);
  await db.sql.query(`
    insert into token_balance (consensus_timestamp, account_id, token_id, balance)
    select s.t, 1000 + a, 10000 + (a * 7 + k * 199) % ${TOKENS}, k
      from (values ${snapshots}) s(t), generate_series(0, ${ACCOUNTS - 1}) a, generate_series(0, ${HELD - 1}) k`);
  await db.sql.query('analyze');
}, 600_000);

afterAll(async () => {
  await db?.drop();
});

describe(`an account's token balances at a snapshot among ${TOKENS} tokens`, () => {
  const at = SNAPSHOTS[1] as bigint;
  const snapshot = { lower: at - 60n * 86_400_000_000_000n, upper: at, ne: [] };

  it('/balances?account.id=&timestamp= reads the account rows by the account-first index', async () => {
    for (const order of ['desc', 'asc'] as const) {
      const plan = await planOf((d) =>
        snapshotBalances(d, {
          ids: [{ operator: 'eq', value: ACCOUNT }],
          balances: [],
          order,
          limit: 25,
          tokenLimit: 50,
          snapshot,
          publicKey: undefined,
        }),
      );
      expectAccountWalk(plan);
    }
  });

  it('/accounts/{id}?timestamp= reads the account rows by the account-first index', async () => {
    const plan = await planOf((d) =>
      historicalAccount(d, {
        id: ACCOUNT,
        tokenLimit: 1000,
        timestamp: { lower: null, upper: at, eq: [], ne: [] },
        snapshot,
      }),
    );
    expectAccountWalk(plan);
  });
});
