import { sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { ACCOUNT_COLUMNS, ACCOUNT_ENTITY_CONDITION, type AccountRow, currentTokenBalances } from './accounts.ts';
import { idConditions } from './accounts-paging.ts';
import { type Comparison, compare } from './comparison.ts';
import { limitOf } from './limit.ts';

export interface AccountListQuery {
  /** `account.id` filters; a null value (an id that names no entity) matches nothing. */
  ids: readonly Comparison<bigint | null>[];
  /** `account.balance` filters (tinybars); ignored without balances, as the reference does. */
  balances: readonly Comparison<bigint>[];
  /** `account.publickey` filters on the hex public key. */
  publicKeys: readonly Comparison<string>[];
  withBalance: boolean;
  order: 'asc' | 'desc';
  limit: number;
  /** Token balances per account (`response.limit.tokenBalance.multipleAccounts`). */
  tokenLimit: number;
}

/**
 * A page of accounts and contracts by id, with their current balances and up to `tokenLimit` token balances
 * each (by token id in the page's order), or without balances at all. One statement.
 */
export function listAccounts(db: Database, query: AccountListQuery): Promise<AccountRow[]> {
  const direction = sql.raw(query.order);
  const ids = idConditions(sql`e.id`, query.ids);
  const stakeIds = idConditions(sql`es.id`, query.ids);
  const conditions = [
    query.withBalance ? ACCOUNT_ENTITY_CONDITION : sql`e.type in ('ACCOUNT', 'CONTRACT')`,
    ...(query.withBalance ? query.balances.map((f) => compare(sql`e.balance`, f)) : []),
    ...ids,
    ...query.publicKeys.map((f) => compare(sql`e.public_key`, f)),
  ];
  const balanceColumns = query.withBalance
    ? sql`, e.balance, e.balance_timestamp,
         ${currentTokenBalances(sql`e.id`, query.order, query.tokenLimit)} as token_balances`
    : sql``;
  // The stake join repeats the id filters so that it reads only the stake rows of the page's candidates.
  const stakeJoin = sql.join([sql`es.id = e.id`, ...stakeIds], sql` and `);
  return db.rows<AccountRow>(sql`
    select ${ACCOUNT_COLUMNS}${balanceColumns}
      from entity e
      left join entity_stake es on ${stakeJoin}
     where ${sql.join(conditions, sql` and `)}
     order by e.id ${direction}
     limit ${limitOf(query.limit)}`);
}
