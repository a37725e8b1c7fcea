import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { type Comparison, compare } from './comparison.ts';

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
 * The tokens an account is associated with, by token id in `order`, with the token's decimals and, where the
 * relationship has none of its own, the token's default freeze and KYC status. `eq` token ids form one `in` list.
 */
export function tokenRelationships(
  db: Database,
  query: { accountId: bigint; tokenIds: readonly Comparison<bigint | null>[]; order: 'asc' | 'desc'; limit: number },
): Promise<TokenRelationshipRow[]> {
  const conditions: SQL[] = [sql`ta.account_id = ${query.accountId}`, sql`ta.associated = true`];
  const eq: SQL[] = [];
  for (const filter of query.tokenIds) {
    if (filter.operator === 'eq') eq.push(sql`${filter.value}`);
    else conditions.push(compare(sql`ta.token_id`, filter));
  }
  if (eq.length > 0) conditions.push(sql`ta.token_id in (${sql.join(eq, sql`, `)})`);
  return db.rows<TokenRelationshipRow>(sql`
    select ta.automatic_association, ta.balance, ta.created_timestamp, t.decimals,
           coalesce(ta.freeze_status, t.freeze_status) as freeze_status,
           coalesce(ta.kyc_status, t.kyc_status) as kyc_status,
           ta.token_id
      from (select * from token_account ta
             where ${sql.join(conditions, sql` and `)}
             order by ta.token_id ${sql.raw(query.order)}
             limit ${query.limit}) ta
      left join token t on t.token_id = ta.token_id
     order by ta.token_id ${sql.raw(query.order)}`);
}
