import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { type Comparison, compare, whereAll } from './comparison.ts';
import { limitOf } from './limit.ts';

/** A row of `GET /api/v1/tokens`. */
export interface TokenListRow extends Record<string, unknown> {
  decimals: string;
  key: Uint8Array | null;
  metadata: Uint8Array | null;
  name: string;
  symbol: string;
  token_id: string;
  type: string;
}

export interface TokensQuery {
  /** Only tokens this account is associated with. */
  accountId?: bigint | null;
  /** `entity.public_key` comparisons (keys as the column stores them). */
  publicKeys: readonly Comparison<string>[];
  /** Case-insensitive substrings of the name, all required (`%` and `_` keep their LIKE meaning, as in the reference). */
  names: readonly string[];
  /** `token.id=<id>` values: the token is one of them. */
  tokenIds: readonly bigint[];
  tokenIdRanges: readonly Comparison<bigint | null>[];
  types: readonly Comparison<string>[];
  order: 'asc' | 'desc';
  limit: number;
}

/** Tokens by token id in `order`, at most `limit`: one statement on the token primary key (or the trigram index). */
export function tokens(db: Database, query: TokensQuery): Promise<TokenListRow[]> {
  const conditions: SQL[] = [
    ...query.names.map((name) => sql`t.name ilike ${`%${name}%`}`),
    ...query.publicKeys.map((filter) => compare(sql`e.public_key`, filter)),
    ...query.tokenIdRanges.map((filter) => compare(sql`t.token_id`, filter)),
    ...query.types.map((filter) => compare(sql`t.type`, filter)),
  ];
  if (query.tokenIds.length > 0) {
    conditions.push(
      sql`t.token_id in (${sql.join(
        query.tokenIds.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  }
  const associated =
    query.accountId === undefined
      ? sql``
      : sql`join token_account ta
              on ta.token_id = t.token_id and ta.account_id = ${query.accountId} and ta.associated is true`;
  return db.rows<TokenListRow>(sql`
    select t.decimals, e.key, t.metadata, t.name, t.symbol, t.token_id, t.type
      from token t
      ${associated}
      join entity e on e.id = t.token_id
      ${whereAll(conditions)}
     order by t.token_id ${sql.raw(query.order)}
     limit ${limitOf(query.limit)}`);
}

/** A token with its entity and custom fee columns, as `GET /api/v1/tokens/{id}` shows it. int8 are strings. */
export interface TokenInfoRow extends Record<string, unknown> {
  auto_renew_account_id: string | null;
  auto_renew_period: string | null;
  deleted: boolean | null;
  key: Uint8Array | null;
  expiration_timestamp: string | null;
  memo: string;
  created_timestamp: string;
  decimals: string;
  fee_schedule_key: Uint8Array | null;
  freeze_default: boolean;
  freeze_key: Uint8Array | null;
  initial_supply: string;
  kyc_key: Uint8Array | null;
  max_supply: string;
  metadata: Uint8Array | null;
  metadata_key: Uint8Array | null;
  name: string;
  pause_key: Uint8Array | null;
  pause_status: string;
  supply_key: Uint8Array | null;
  supply_type: string;
  symbol: string;
  token_id: string;
  total_supply: string;
  treasury_account_id: string;
  type: string;
  wipe_key: Uint8Array | null;
  modified_timestamp: string;
  has_custom_fee: boolean;
  fee_created_timestamp: string | null;
  fixed_fees: Record<string, unknown>[] | null;
  fractional_fees: Record<string, unknown>[] | null;
  royalty_fees: Record<string, unknown>[] | null;
}

const TOKEN_COLUMNS = [
  'created_timestamp',
  'decimals',
  'fee_schedule_key',
  'freeze_default',
  'freeze_key',
  'initial_supply',
  'kyc_key',
  'max_supply',
  'metadata',
  'metadata_key',
  'name',
  'pause_key',
  'pause_status',
  'supply_key',
  'supply_type',
  'symbol',
  'timestamp_range',
  'token_id',
  'total_supply',
  'treasury_account_id',
  'type',
  'wipe_key',
];
const ENTITY_COLUMNS = [
  'auto_renew_account_id',
  'auto_renew_period',
  'deleted',
  'id',
  'key',
  'expiration_timestamp',
  'memo',
  'timestamp_range',
];
const CUSTOM_FEE_COLUMNS = ['entity_id', 'fixed_fees', 'fractional_fees', 'royalty_fees', 'timestamp_range'];

/**
 * The state of one row as of a time: the newest version, current or historical, whose validity starts at or before
 * (`lte`) or before (`lt`) `timestamp`.
 */
function asOf(table: string, idColumn: string, columns: readonly string[], id: bigint, at: Comparison<bigint>): SQL {
  const list = sql.raw(columns.map((column) => `x.${column}`).join(', '));
  const where = sql`x.${sql.raw(idColumn)} = ${id} and ${compare(sql`lower(x.timestamp_range)`, at)}`;
  return sql`(select ${list}
                from ((select ${list} from ${sql.raw(table)} x where ${where})
                      union all
                      (select ${list} from ${sql.raw(`${table}_history`)} x where ${where}
                        order by lower(x.timestamp_range) desc limit 1)) x
               order by lower(x.timestamp_range) desc
               limit 1)`;
}

/**
 * A token with its entity and its custom fees, now or as of `at` (each part in its newest version by then). The
 * custom fee columns are null when the token has no custom fee row.
 */
export async function tokenInfo(
  db: Database,
  tokenId: bigint,
  at?: Comparison<bigint>,
): Promise<TokenInfoRow | undefined> {
  const token = at ? asOf('token', 'token_id', TOKEN_COLUMNS, tokenId, at) : sql`token`;
  const entity = at ? asOf('entity', 'id', ENTITY_COLUMNS, tokenId, at) : sql`entity`;
  const customFee = at ? asOf('custom_fee', 'entity_id', CUSTOM_FEE_COLUMNS, tokenId, at) : sql`custom_fee`;
  const rows = await db.rows<TokenInfoRow>(sql`
    select e.auto_renew_account_id, e.auto_renew_period, e.deleted, e.key, e.expiration_timestamp, e.memo,
           t.created_timestamp, t.decimals, t.fee_schedule_key, t.freeze_default, t.freeze_key, t.initial_supply,
           t.kyc_key, t.max_supply, t.metadata, t.metadata_key, t.name, t.pause_key, t.pause_status, t.supply_key,
           t.supply_type, t.symbol, t.token_id, t.total_supply, t.treasury_account_id, t.type, t.wipe_key,
           greatest(lower(t.timestamp_range), lower(e.timestamp_range)) as modified_timestamp,
           cf.timestamp_range is not null as has_custom_fee, lower(cf.timestamp_range) as fee_created_timestamp,
           cf.fixed_fees, cf.fractional_fees, cf.royalty_fees
      from ${token} t
      join ${entity} e on e.id = t.token_id
      left join ${customFee} cf on cf.entity_id = t.token_id
     where t.token_id = ${tokenId}`);
  return rows[0];
}
