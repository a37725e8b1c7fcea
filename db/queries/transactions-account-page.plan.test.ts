import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainGenericQueries, type PlanNode, planNodes } from '../../test/harness/explain.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { listTransactions, type TransactionListQuery } from './transactions-list.ts';

/**
 * An account's page of transactions with the plan Postgres settles on for every account (a generic plan: the
 * account is a parameter, the row limit and the fee account's exclusion are in the text). Token transfers are
 * skewed, as on a real ledger: 30,000 accounts with five each, and one busy account in a quarter of all
 * transactions. Planned for "an account" (about six token transfers), the page must still walk the busy
 * account's index in order and stop at the limit, not collect all its transfers and sort them.
 */

const TRANSACTIONS = 200_000;
const START = 1_700_000_000_000_000_000n;
const STEP = 1_000_000n;
const BUSY = 7777n;

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.sql.query(`
    insert into transaction (consensus_timestamp, type, result, payer_account_id, valid_start_ns, node_account_id,
                             charged_tx_fee, max_fee, valid_duration_seconds, nonce, scheduled, index)
    select ${START} + g * ${STEP}, 14, 22, 1000 + g % 997, ${START} + g * ${STEP} - 1000, 3, 100, 1000, 120, 0, false, 1
      from generate_series(1::bigint, ${TRANSACTIONS}) g`);
  await db.sql.query(`
    insert into crypto_transfer (entity_id, consensus_timestamp, amount, payer_account_id, is_approval)
    select account, ${START} + g * ${STEP}, amount, 1000 + g % 997, false
      from generate_series(1::bigint, ${TRANSACTIONS}) g,
           lateral (values (1000 + g % 997, -100), (3, 90), (98, 10)) as t(account, amount)`);
  // a quarter of the transactions move a token to the busy account, the rest to one of 30,000 others, in no order
  await db.sql.query(`
    insert into token_transfer (token_id, account_id, consensus_timestamp, amount, payer_account_id, is_approval)
    select 5000, case when g % 4 = 0 then ${BUSY} else 100000 + (g * 7919) % 30000 end, ${START} + g * ${STEP}, 5,
           1000 + g % 997, false
      from generate_series(1::bigint, ${TRANSACTIONS}) g`);
  await db.sql.query('analyze');
}, 300_000);

afterAll(async () => {
  await db?.drop();
});

const query = (account: bigint): TransactionListQuery => ({
  accounts: [{ operator: 'eq', account }],
  types: [],
  timestamp: { lower: null, upper: null, eq: null, ne: [] },
  order: 'desc',
  limit: 25,
  precedingTypes: [11, 15],
});

describe("an account's transactions with the plan for every account", () => {
  it("walks the busy account's token transfers in order and stops at the page", async () => {
    const [plan] = await explainGenericQueries(db.sql, (d) => listTransactions(d, query(BUSY)));
    if (!plan) throw new Error('no statement was run');
    const tokenReads = planNodes(plan).filter((node: PlanNode) => node['Relation Name'] === 'token_transfer');
    const walk = tokenReads.find((node) => node['Index Name'] === 'token_transfer__account_timestamp');
    expect(walk?.['Node Type']).toBe('Index Scan');
    expect(tokenReads.map((node) => node['Node Type'])).not.toContain('Bitmap Heap Scan');
    // the page's 25 and a few more at most; the account has 50,000
    expect(walk?.['Actual Rows']).toBeLessThanOrEqual(50);
  });
});
