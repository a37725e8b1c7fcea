import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { type Comparison, compare } from './comparison.ts';
import { limitOf } from './limit.ts';

/** One holder's balance; `timestamp` (the page's snapshot or newest balance change) is the same on every row. */
export interface TokenBalanceRow extends Record<string, unknown> {
  account_id: string;
  balance: string;
  timestamp: string | null;
  decimals: string | null;
}

export interface TokenBalancesQuery {
  tokenId: bigint;
  accountIds: readonly Comparison<bigint | null>[];
  balances: readonly Comparison<bigint>[];
  /** Only accounts whose `entity.public_key` is this key. */
  publicKey?: string;
  order: 'asc' | 'desc';
  limit: number;
  /**
   * A historical query: balances as of the newest balance snapshot within `[lower, upper]` (minus `excluded`),
   * read from `token_balance` back to the first day of that snapshot's month. Without it, the current balances
   * of associated accounts.
   */
  snapshot?: { lower: bigint; upper: bigint; excluded: readonly bigint[]; treasuryAccountId: bigint };
}

const decimalsOf = (tokenId: bigint) => sql`(select decimals from token where token_id = ${tokenId})`;

/**
 * A page of a token's holders by account id in `order`: one statement. The current balances walk the
 * `(token_id, account_id)` index of `token_account` and stop at `limit`.
 */
export function tokenBalances(db: Database, query: TokenBalancesQuery): Promise<TokenBalanceRow[]> {
  const order = sql.raw(query.order);
  const accountConditions = query.accountIds.map((filter) => compare(sql`ti.account_id`, filter));
  const balanceConditions = query.balances.map((filter) => compare(sql`ti.balance`, filter));
  const withPublicKey =
    query.publicKey === undefined
      ? sql``
      : sql`join entity e on e.type = 'ACCOUNT' and e.id = ti.account_id and e.public_key = ${query.publicKey}`;

  if (!query.snapshot) {
    const where = sql.join(
      [sql`ti.token_id = ${query.tokenId}`, ...accountConditions, sql`ti.associated = true`, ...balanceConditions],
      sql` and `,
    );
    return db.rows<TokenBalanceRow>(sql`
      with page as (
        select ti.account_id, ti.balance, ti.balance_timestamp
          from token_account ti
          ${withPublicKey}
         where ${where}
         order by ti.account_id ${order}
         limit ${limitOf(query.limit)})
      select account_id, balance, (select max(balance_timestamp) from page) as timestamp,
             ${decimalsOf(query.tokenId)} as decimals
        from page
       order by account_id ${order}`);
  }

  const { lower, upper, excluded, treasuryAccountId } = query.snapshot;
  // The treasury is in every balance snapshot, and account_id leads the primary key: its rows find the snapshot.
  const excludedCondition =
    excluded.length > 0
      ? sql`and not consensus_timestamp in (${sql.join(
          excluded.map((ts) => sql`${ts}`),
          sql`, `,
        )})`
      : sql``;
  const where: SQL = sql.join(
    [
      sql`ti.token_id = ${query.tokenId}`,
      ...accountConditions,
      sql`ti.consensus_timestamp >= s.month_start`,
      sql`ti.consensus_timestamp <= s.snapshot_timestamp`,
    ],
    sql` and `,
  );
  return db.rows<TokenBalanceRow>(sql`
    with snapshot as (
      select consensus_timestamp as snapshot_timestamp,
             (extract(epoch from date_trunc('month', to_timestamp(consensus_timestamp / 1000000000) at time zone 'UTC'))
               * 1000000000)::bigint as month_start
        from account_balance
       where account_id = ${treasuryAccountId} and consensus_timestamp >= ${lower} and consensus_timestamp <= ${upper}
             ${excludedCondition}
       order by consensus_timestamp desc
       limit 1),
    latest as (
      select distinct on (ti.account_id) ti.account_id, ti.balance, s.snapshot_timestamp
        from snapshot s
        join token_balance ti on ${where}
        ${withPublicKey}
       order by ti.account_id ${order}, ti.consensus_timestamp desc)
    select ti.account_id, ti.balance, ti.snapshot_timestamp as timestamp, ${decimalsOf(query.tokenId)} as decimals
      from latest ti
     ${balanceConditions.length > 0 ? sql`where ${sql.join(balanceConditions, sql` and `)}` : sql``}
     order by ti.account_id ${order}
     limit ${limitOf(query.limit)}`);
}
