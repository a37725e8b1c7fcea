import { sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import {
  currentTokenBalances,
  monthStart,
  type SnapshotSearch,
  snapshotPartitionBounds,
  type TokenBalanceJson,
  TREASURY_ACCOUNT,
  tokenBalanceArray,
} from './accounts.ts';
import { idConditions } from './accounts-paging.ts';
import { type Comparison, compare } from './comparison.ts';
import { limitOf } from './limit.ts';

export interface BalanceRow extends Record<string, unknown> {
  account_id: string;
  balance: string | null;
  /** The balance's time: the entity's last balance change, or the snapshot's time. */
  consensus_timestamp: string | null;
  token_balances: TokenBalanceJson[] | null;
}

export interface BalanceQuery {
  ids: readonly Comparison<bigint | null>[];
  balances: readonly Comparison<bigint>[];
  order: 'asc' | 'desc';
  limit: number;
  /** Token balances per account (`response.limit.tokenBalance.multipleAccounts`). */
  tokenLimit: number;
}

/** Current balances of accounts and contracts by id: one statement. */
export function currentBalances(
  db: Database,
  query: BalanceQuery & { publicKeys: readonly Comparison<string>[] },
): Promise<BalanceRow[]> {
  const conditions = [
    sql`e.type in ('ACCOUNT', 'CONTRACT')`,
    ...idConditions(sql`e.id`, query.ids),
    ...query.publicKeys.map((f) => compare(sql`e.public_key`, f)),
    ...query.balances.map((f) => compare(sql`e.balance`, f)),
  ];
  return db.rows<BalanceRow>(sql`
    select e.id as account_id, e.balance, e.balance_timestamp as consensus_timestamp,
           ${currentTokenBalances(sql`e.id`, query.order, query.tokenLimit)} as token_balances
      from entity e
     where ${sql.join(conditions, sql` and `)}
     order by e.id ${sql.raw(query.order)}
     limit ${limitOf(query.limit)}`);
}

/**
 * Balances as of the latest snapshot inside `snapshot` (its time is the treasury's latest row there): each
 * account's latest row (meeting the balance filters) from the start of that month to the snapshot, by account id,
 * with its token balances likewise. `publicKey` restricts the accounts to the first `limit` entities with that key.
 * No rows when there is no snapshot. One statement.
 */
export function snapshotBalances(
  db: Database,
  query: BalanceQuery & { snapshot: SnapshotSearch; publicKey: string | undefined },
): Promise<BalanceRow[]> {
  const { snapshot } = query;
  const direction = sql.raw(query.order);
  const conditions = [
    ...idConditions(sql`ab.account_id`, query.ids),
    ...query.balances.map((f) => compare(sql`ab.balance`, f)),
  ];
  if (query.publicKey !== undefined) {
    conditions.push(sql`ab.account_id in (select id from entity
                                           where type in ('ACCOUNT', 'CONTRACT') and public_key = ${query.publicKey}
                                           limit ${limitOf(query.limit)})`);
  }
  const excluded =
    snapshot.ne.length > 0 ? sql`and consensus_timestamp not in (${sql.join([...snapshot.ne], sql`, `)})` : sql``;
  const tokens = tokenBalanceArray(
    sql`select distinct on (tb.token_id) tb.token_id, tb.balance
          from token_balance tb
         where tb.account_id = ab.account_id
           and tb.consensus_timestamp >= b.lower and tb.consensus_timestamp <= b.upper
           ${snapshotPartitionBounds('tb', snapshot)}
         order by tb.token_id ${direction}, tb.consensus_timestamp desc
         limit ${limitOf(query.tokenLimit)}`,
    query.order,
  );
  return db.rows<BalanceRow>(sql`
    with snapshot as (select consensus_timestamp as upper
                        from account_balance
                       where account_id = ${TREASURY_ACCOUNT}
                         and consensus_timestamp >= ${snapshot.lower} and consensus_timestamp <= ${snapshot.upper}
                         ${excluded}
                       order by consensus_timestamp desc
                       limit 1),
         bounds as (select upper, ${monthStart(sql`upper`)} as lower from snapshot)
    select distinct on (ab.account_id) ab.account_id, ab.balance, b.upper as consensus_timestamp,
           ${tokens} as token_balances
      from bounds b
      join account_balance ab on ab.consensus_timestamp >= b.lower and ab.consensus_timestamp <= b.upper
                              ${snapshotPartitionBounds('ab', snapshot)}
     ${conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``}
     order by ab.account_id ${direction}, ab.consensus_timestamp desc
     limit ${limitOf(query.limit)}`);
}
