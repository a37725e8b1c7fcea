import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainQueries, type PlanNode, planNodes } from '../../test/harness/explain.ts';
import { seedTokenHolders } from '../../test/harness/factories-tokens.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { type TokenBalancesQuery, tokenBalances } from './tokens-balances.ts';

const TOKEN = 5000n;
const HOLDERS = 1_000_000;
const FIRST_ACCOUNT = 10_000n;

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedTokenHolders(db.sql, TOKEN, HOLDERS, FIRST_ACCOUNT);
  // Other tokens held by the same accounts, so the token's rows are a part of the table.
  await seedTokenHolders(db.sql, TOKEN + 1n, 100_000, FIRST_ACCOUNT);
  await db.sql.query('analyze token_account');
}, 300_000);

afterAll(async () => {
  await db?.drop();
});

const base: TokenBalancesQuery = { tokenId: TOKEN, accountIds: [], balances: [], order: 'desc', limit: 25 };

async function planOf(query: TokenBalancesQuery): Promise<PlanNode> {
  const [plan] = await explainQueries(db.sql, (database) => tokenBalances(database, query));
  if (!plan) throw new Error('no plan');
  return plan;
}

describe('tokenBalances for a token with 1,000,000 holders', () => {
  it.each<[string, Partial<TokenBalancesQuery>]>([
    ['the first page (descending)', {}],
    ['an ascending page', { order: 'asc' }],
    ['the page after an account', { accountIds: [{ operator: 'lt', value: FIRST_ACCOUNT + 500_000n }] }],
  ])('reads %s on the (token_id, account_id) index, stopping at the limit', async (_name, change) => {
    const nodes = planNodes(await planOf({ ...base, ...change }));
    const types = nodes.map((node) => node['Node Type']);
    expect(types).not.toContain('Seq Scan');
    const scan = nodes.find((node) => node['Relation Name'] === 'token_account');
    expect(scan?.['Index Name']).toBe('token_account__token_id_account_id');
    expect(scan?.['Actual Rows']).toBeLessThanOrEqual(25);
    // Sorting the 25 rows of the page again is cheap; no sort may see more than the page.
    for (const sort of nodes.filter((node) => node['Node Type'] === 'Sort')) {
      expect(sort['Actual Rows']).toBeLessThanOrEqual(25);
    }
  });
});
