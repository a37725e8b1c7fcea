import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { type ColumnFilter, columnConditions, unionOfParts } from './accounts-paging.ts';
import type { Comparison } from './comparison.ts';
import { limitOf } from './limit.ts';

/** An allowance row; `token_id` only on token allowances. int8 columns are strings. */
export interface AllowanceRow extends Record<string, unknown> {
  amount: string;
  amount_granted: string;
  owner: string;
  spender: string;
  timestamp_from: string | null;
  timestamp_to: string | null;
  token_id?: string;
}

const ALLOWANCE_COLUMNS = sql.raw(
  'amount, amount_granted, owner, spender, lower(timestamp_range) as timestamp_from, upper(timestamp_range) as timestamp_to',
);

/**
 * The hbar allowances an owner granted that have something left (`amount > 0`), by spender in `order`. Spender
 * `eq` filters are one `in` list.
 */
export function cryptoAllowances(
  db: Database,
  query: { owner: bigint; spender: readonly Comparison<bigint | null>[]; order: 'asc' | 'desc'; limit: number },
): Promise<AllowanceRow[]> {
  const conditions: SQL[] = [sql`owner = ${query.owner}`];
  const spenderIn: SQL[] = [];
  for (const filter of query.spender) {
    if (filter.operator === 'eq') spenderIn.push(sql`${filter.value}`);
    else conditions.push(...columnConditions([{ column: 'spender', ...filter }]));
  }
  if (spenderIn.length > 0) conditions.push(sql`spender in (${sql.join(spenderIn, sql`, `)})`);
  conditions.push(sql`amount > 0`);
  return db.rows<AllowanceRow>(sql`
    select ${ALLOWANCE_COLUMNS}
      from crypto_allowance
     where ${sql.join(conditions, sql` and `)}
     order by spender ${sql.raw(query.order)}
     limit ${limitOf(query.limit)}`);
}

/**
 * The fungible token allowances an owner granted that have something left, by spender then token id in
 * `order`; each part of `parts` is one set of spender and token filters (a union, as for NFTs).
 */
export function tokenAllowances(
  db: Database,
  query: {
    owner: bigint;
    parts: readonly (readonly ColumnFilter<'spender' | 'token_id'>[])[];
    order: 'asc' | 'desc';
    limit: number;
  },
): Promise<AllowanceRow[]> {
  const direction = sql.raw(query.order);
  const orderBy = sql`spender ${direction}, token_id ${direction}`;
  const part = (filters: readonly ColumnFilter[]) => sql`
    select ${ALLOWANCE_COLUMNS}, token_id
      from token_allowance
     where ${sql.join([sql`owner = ${query.owner}`, sql`amount > 0`, ...columnConditions(filters)], sql` and `)}
     order by ${orderBy}
     limit ${limitOf(query.limit)}`;
  const parts = query.parts.length > 0 ? query.parts.map(part) : [part([])];
  return db.rows<AllowanceRow>(unionOfParts(parts, orderBy, query.limit));
}

export interface NftAllowanceRow extends Record<string, unknown> {
  approved_for_all: boolean;
  owner: string;
  spender: string;
  timestamp_from: string | null;
  timestamp_to: string | null;
  token_id: string;
}

/**
 * The approved-for-all NFT allowances an account granted (`byOwner`) or was granted, by the other party then
 * token id in `order`, within `bounds` (a condition from `boundConditions`, null for none).
 */
export function nftAllowances(
  db: Database,
  query: { accountId: bigint; byOwner: boolean; bounds: SQL | null; order: 'asc' | 'desc'; limit: number },
): Promise<NftAllowanceRow[]> {
  const direction = sql.raw(query.order);
  const [account, other] = query.byOwner ? ['owner', 'spender'] : ['spender', 'owner'];
  const conditions = [sql`${sql.raw(account)} = ${query.accountId}`, sql`approved_for_all = true`];
  if (query.bounds) conditions.push(query.bounds);
  return db.rows<NftAllowanceRow>(sql`
    select approved_for_all, owner, spender, lower(timestamp_range) as timestamp_from,
           upper(timestamp_range) as timestamp_to, token_id
      from nft_allowance
     where ${sql.join(conditions, sql` and `)}
     order by ${sql.raw(other)} ${direction}, token_id ${direction}
     limit ${limitOf(query.limit)}`);
}
