import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { type Comparison, compare } from './comparison.ts';
import { limitOf } from './limit.ts';

export interface TokenRelationshipRow extends Record<string, unknown> {
  automatic_association: boolean | null;
  balance: string;
  created_timestamp: string | null;
  /** Null when the token itself is unknown. */
  decimals: string | null;
  freeze_status: number | null;
  kyc_status: number | null;
  token_id: string;
}

/**
 * Whether the account exists (as any entity), and the tokens it is associated with, by token id in `order`, with
 * the token's decimals and, where the relationship has none of its own, the token's default freeze and KYC
 * status. `eq` token ids form one `in` list. One statement: the existence check and the page together.
 */
export async function tokenRelationships(
  db: Database,
  query: { accountId: bigint; tokenIds: readonly Comparison<bigint | null>[]; order: 'asc' | 'desc'; limit: number },
): Promise<{ accountExists: boolean; rows: TokenRelationshipRow[] }> {
  const conditions: SQL[] = [sql`ta.account_id = ${query.accountId}`, sql`ta.associated = true`];
  const eq: SQL[] = [];
  for (const filter of query.tokenIds) {
    if (filter.operator === 'eq') eq.push(sql`${filter.value}`);
    else conditions.push(compare(sql`ta.token_id`, filter));
  }
  if (eq.length > 0) conditions.push(sql`ta.token_id in (${sql.join(eq, sql`, `)})`);
  const direction = sql.raw(query.order);
  // Always one row at least: the existence flag, with the relationship columns null when there is none.
  const rows = await db.rows<TokenRelationshipRow & { account_exists: boolean }>(sql`
    select a.account_exists, r.*
      from (select exists (select 1 from entity where id = ${query.accountId}) as account_exists) a
      left join lateral (
        select ta.automatic_association, ta.balance, ta.created_timestamp, t.decimals,
               coalesce(ta.freeze_status, t.freeze_status) as freeze_status,
               coalesce(ta.kyc_status, t.kyc_status) as kyc_status,
               ta.token_id
          from (select * from token_account ta
                 where ${sql.join(conditions, sql` and `)}
                 order by ta.token_id ${direction}
                 limit ${limitOf(query.limit)}) ta
          left join token t on t.token_id = ta.token_id) r on a.account_exists
     order by r.token_id ${direction}`);
  return {
    accountExists: rows[0]?.account_exists === true,
    rows: rows.filter((row) => row.token_id !== null),
  };
}
