import { sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { type ColumnFilter, unionOfParts } from './accounts-paging.ts';
import { type Comparison, compare } from './comparison.ts';
import { limitOf } from './limit.ts';

export interface NftRow extends Record<string, unknown> {
  account_id: string | null;
  created_timestamp: string | null;
  delegating_spender: string | null;
  deleted: boolean | null;
  metadata: Uint8Array | null;
  modified_timestamp: string | null;
  serial_number: string;
  spender: string | null;
  token_id: string;
}

/**
 * The NFTs an account owns, by token id then serial number in `order`. Each part of `parts` is one set of token
 * and serial number filters (see the route's bounds); `spender` filters apply to every part (its `eq` values as
 * one list). An NFT of a deleted token counts as deleted. One statement.
 */
export function accountNfts(
  db: Database,
  query: {
    accountId: bigint;
    parts: readonly (readonly ColumnFilter<'token_id' | 'serial_number'>[])[];
    spender: readonly Comparison<bigint | null>[];
    order: 'asc' | 'desc';
    limit: number;
  },
): Promise<NftRow[]> {
  const direction = sql.raw(query.order);
  const orderBy = sql`token_id ${direction}, serial_number ${direction}`;
  const spenderRanges = query.spender.filter((f) => f.operator !== 'eq').map((f) => compare(sql`n.spender`, f));
  const spenderIn = query.spender.filter((f) => f.operator === 'eq').map((f) => sql`${f.value}`);
  const part = (filters: readonly ColumnFilter[]) => {
    const conditions = [
      sql`n.account_id = ${query.accountId}`,
      ...filters.map((filter) => compare(sql.raw(`n.${filter.column}`), filter)),
      ...spenderRanges,
      ...(spenderIn.length > 0 ? [sql`n.spender in (${sql.join(spenderIn, sql`, `)})`] : []),
    ];
    return sql`select n.account_id, n.created_timestamp, n.delegating_spender,
                      n.deleted or coalesce(e.deleted, false) as deleted, n.metadata, n.serial_number, n.spender,
                      lower(n.timestamp_range) as modified_timestamp, n.token_id
                 from nft n
                 left join entity e on e.id = n.token_id
                where ${sql.join(conditions, sql` and `)}
                order by ${orderBy}
                limit ${limitOf(query.limit)}`;
  };
  const parts = query.parts.length > 0 ? query.parts.map(part) : [part([])];
  return db.rows<NftRow>(unionOfParts(parts, orderBy, query.limit));
}
