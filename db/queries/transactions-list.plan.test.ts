import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainGenericQueries, explainQueries, type PlanNode, planNodes } from '../../test/harness/explain.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import type { Database } from '../client.ts';
import { blockByHashOrNumber, listBlocks } from './blocks.ts';
import { listTransactions, type TransactionListQuery } from './transactions-list.ts';

/**
 * The list queries on a table of realistic size: each must walk an index in the page's order and never read a whole
 * transaction or transfer table. Plans are checked by shape (node types, relations, indexes), not by timing.
 */

const TRANSACTIONS = 1_000_000;
const START = 1_700_000_000_000_000_000n;
/** One transaction every 10 ms. */
const STEP = 10_000_000n;
const PAYERS = 997;
const PAYER = 1_000n + 42n;

let db: TestDatabase;

/**
 * The plan of the one statement a query function issues, every node of it: the plan for its values, or (`generic`)
 * the one plan a prepared statement may use for all values.
 */
async function planOf(run: (db: Database) => Promise<unknown>, generic = false): Promise<PlanNode[]> {
  const [plan] = await (generic ? explainGenericQueries : explainQueries)(db.sql, run);
  if (!plan) throw new Error('no statement was run');
  return planNodes(plan);
}

const BIG_TABLES = ['transaction', 'crypto_transfer', 'token_transfer', 'entity_transaction'];

/**
 * Every big table the plan reads is read through an index, and `pageIndexes` are walked to find the page: under a
 * Limit or a Unique node (the details of the page's rows are then looked up by exact key).
 */
function expectIndexWalks(plan: PlanNode[], pageIndexes: string[]) {
  const seqScans = plan.filter((n) => n['Node Type'] === 'Seq Scan' && BIG_TABLES.includes(n['Relation Name'] ?? ''));
  expect(seqScans.map((n) => n['Relation Name'])).toEqual([]);
  const walked = plan
    .filter((n) => n['Node Type'] === 'Limit' || n['Node Type'] === 'Unique')
    .flatMap((n) => n.Plans ?? [])
    .flatMap((n) => (n['Index Name'] ? [n['Index Name']] : []));
  for (const index of pageIndexes) expect(walked).toContain(index);
}

const query = (overrides: Partial<TransactionListQuery>): TransactionListQuery => ({
  accounts: [],
  types: [],
  timestamp: { lower: null, upper: null, eq: null, ne: [] },
  order: 'desc',
  limit: 25,
  precedingTypes: [11, 15],
  ...overrides,
});

beforeAll(async () => {
  db = await createTestDatabase();
  // A payer pays for every 997th transaction; each transaction moves hbar from its payer to node 0.0.3 and the fee
  // account 0.0.98; every 10th also moves a token, every 100th is linked to an NFT receiver in entity_transaction.
  await db.sql.query(`
    insert into transaction (consensus_timestamp, type, result, payer_account_id, valid_start_ns, node_account_id,
                             charged_tx_fee, max_fee, valid_duration_seconds, nonce, scheduled, index)
    select ${START} + g * ${STEP}, case when g % 50 = 0 then 11 else 14 end, case when g % 20 = 0 then 11 else 22 end,
           1000 + g % ${PAYERS}, ${START} + g * ${STEP} - 1000, 3, 100, 1000, 120, 0, false, 1
      from generate_series(1::bigint, ${TRANSACTIONS}) g`);
  await db.sql.query(`
    insert into crypto_transfer (entity_id, consensus_timestamp, amount, payer_account_id, is_approval)
    select account, ${START} + g * ${STEP}, amount, 1000 + g % ${PAYERS}, false
      from generate_series(1::bigint, ${TRANSACTIONS}) g,
           lateral (values (1000 + g % ${PAYERS}, -100), (3, 90), (98, 10)) as t(account, amount)`);
  await db.sql.query(`
    insert into token_transfer (token_id, account_id, consensus_timestamp, amount, payer_account_id, is_approval)
    select 5000, account, ${START} + g * ${STEP}, amount, 1000 + g % ${PAYERS}, false
      from generate_series(10::bigint, ${TRANSACTIONS}, 10) g,
           lateral (values (1000 + g % ${PAYERS}, -5), (2000 + g % 101, 5)) as t(account, amount)`);
  await db.sql.query(`
    insert into entity_transaction (consensus_timestamp, entity_id, payer_account_id, result, type)
    select ${START} + g * ${STEP}, 3000 + g % 53, 1000 + g % ${PAYERS}, 22, 14
      from generate_series(100::bigint, ${TRANSACTIONS}, 100) g`);
  await db.sql.query(`
    insert into record_file (name, load_start, load_end, hash, prev_hash, consensus_start, consensus_end, count,
                             digest_algorithm, version, file_hash, index)
    select g || '.rcd', 0, 0, md5(g::text) || md5(g::text) || md5(g::text), '', ${START} + g * 2000000000,
           ${START} + g * 2000000000 + 1999999999, 200, 0, 6, '', g
      from generate_series(1::bigint, 100000) g`);
  await db.sql.query('analyze');
}, 600_000);

afterAll(async () => {
  await db?.drop();
});

describe(`list query plans over ${TRANSACTIONS.toLocaleString('en')} transactions`, () => {
  it('seeded the table', async () => {
    const { rows } = await db.sql.query('select count(*)::int as n from transaction');
    expect(rows[0].n).toBeGreaterThanOrEqual(1_000_000);
  });

  it('walks the primary key for the newest and oldest transactions', async () => {
    expectIndexWalks(await planOf((d) => listTransactions(d, query({}))), ['transaction_pkey']);
    expectIndexWalks(await planOf((d) => listTransactions(d, query({ order: 'asc' }))), ['transaction_pkey']);
  });

  it('walks the primary key with a plan made for every page (a generic plan: the row limit is in the text)', async () => {
    expectIndexWalks(await planOf((d) => listTransactions(d, query({})), true), ['transaction_pkey']);
    const timestamp = { lower: START + 1000n * STEP, upper: START + 500_000n * STEP, eq: null, ne: [] };
    expectIndexWalks(await planOf((d) => listTransactions(d, query({ timestamp })), true), ['transaction_pkey']);
  });

  it('walks the primary key within a timestamp range and under result and type filters', async () => {
    const timestamp = { lower: START + 1000n * STEP, upper: START + 500_000n * STEP, eq: null, ne: [] };
    expectIndexWalks(await planOf((d) => listTransactions(d, query({ timestamp }))), ['transaction_pkey']);
    expectIndexWalks(await planOf((d) => listTransactions(d, query({ result: 'fail' }))), ['transaction_pkey']);
    const byType = await planOf((d) => listTransactions(d, query({ types: [14] })));
    expectIndexWalks(byType, []);
  });

  it("reads an account's transactions through the payer, transfer and entity indexes", async () => {
    const plan = await planOf((d) => listTransactions(d, query({ accounts: [{ operator: 'eq', account: PAYER }] })));
    expectIndexWalks(plan, [
      'transaction__payer_account_id_consensus_ns',
      'crypto_transfer__entity_id_consensus_timestamp',
      'token_transfer__account_timestamp',
      'entity_transaction_pkey',
    ]);
  });

  it("reads an account's transactions through the same indexes with a plan made for every account", async () => {
    const accounts = [{ operator: 'eq' as const, account: PAYER }];
    expectIndexWalks(await planOf((d) => listTransactions(d, query({ accounts })), true), [
      'transaction__payer_account_id_consensus_ns',
      'crypto_transfer__entity_id_consensus_timestamp',
      'token_transfer__account_timestamp',
    ]);
  });

  it('reads an account range through indexes (by account or by time, as the planner estimates cheaper)', async () => {
    const accounts = [
      { operator: 'gte' as const, account: PAYER },
      { operator: 'lte' as const, account: PAYER + 2n },
    ];
    expectIndexWalks(await planOf((d) => listTransactions(d, query({ accounts }))), []);
  });

  it("reads an account's credits and debits through its transfer indexes", async () => {
    const accounts = [{ operator: 'eq' as const, account: PAYER }];
    expectIndexWalks(await planOf((d) => listTransactions(d, query({ accounts, transferSign: 'debit' }))), [
      'crypto_transfer__entity_id_consensus_timestamp',
      'token_transfer__account_timestamp',
    ]);
  });

  it('walks the transfers by time for credits of any account', async () => {
    expectIndexWalks(await planOf((d) => listTransactions(d, query({ transferSign: 'credit' }))), [
      'crypto_transfer__consensus_timestamp',
    ]);
  });

  it('reads blocks through the record file indexes', async () => {
    const byNumber = await planOf((d) =>
      listBlocks(d, {
        conditions: [{ column: 'index', operator: 'gt', value: 10n }],
        orderBy: 'index',
        order: 'asc',
        limit: 25,
      }),
    );
    expect(byNumber.some((n) => n['Index Name'] === 'record_file__index')).toBe(true);
    const latest = await planOf((d) =>
      listBlocks(d, { conditions: [], orderBy: 'consensus_end', order: 'desc', limit: 25 }),
    );
    expect(latest.some((n) => n['Index Name'] === 'record_file_pkey')).toBe(true);
    const byHash = await planOf((d) => blockByHashOrNumber(d, { hashPrefix: 'c4ca4238a0b923820dcc509a6f75849b' }));
    expect(byHash.some((n) => n['Index Name'] === 'record_file__hash')).toBe(true);
  });
});
