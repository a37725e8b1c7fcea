import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { hexBytea } from './bytea.ts';
import { type Comparison, compare } from './comparison.ts';
import { inclusiveRangeUpper, MAX_INT8 } from './int8.ts';
import { limitOf } from './limit.ts';

/** A contract entity with its `contract` row, as `/contracts` formats it. int8 columns are strings. */
export interface ContractRow extends Record<string, unknown> {
  auto_renew_account_id: string | null;
  auto_renew_period: string | null;
  created_timestamp: string | null;
  deleted: boolean | null;
  evm_address: Uint8Array | null;
  expiration_timestamp: string | null;
  id: string;
  key: Uint8Array | null;
  max_automatic_token_associations: number | null;
  memo: string;
  ethereum_nonce: string | null;
  obtainer_id: string | null;
  permanent_removal: boolean | null;
  proxy_account_id: string | null;
  /** The int8range as text (the driver has no range parser), e.g. `[1,)`. */
  timestamp_range: string;
  file_id: string | null;
}

/** A contract with what `/contracts/{id}` adds: its init code, runtime code and the file that held its code. */
export interface ContractDetailRow extends ContractRow {
  initcode: Uint8Array | null;
  runtime_bytecode: Uint8Array | null;
  /** The bytes of `file_id` as they were when the contract was created (only for user files, num > 1000). */
  file_bytecode: Uint8Array | null;
}

const COLUMNS = sql.raw(`e.auto_renew_account_id, e.auto_renew_period, e.created_timestamp, e.deleted, e.evm_address,
  e.expiration_timestamp, e.id, e.key, e.max_automatic_token_associations, e.memo, e.ethereum_nonce, e.obtainer_id,
  e.permanent_removal, e.proxy_account_id, e.timestamp_range, c.file_id`);

/** The entity num part of an encoded id (the low 38 bits). */
const NUM_MASK = 274877906943n;
/** File nums up to 1000 are system files: a contract never takes its code from them. */
const MAX_SYSTEM_FILE_NUM = 1000n;

export interface ContractListQuery {
  /** `e.id in (...)`: the `eq` filters, empty for none. */
  ids: readonly bigint[];
  /** The other comparisons on the contract id. */
  comparisons: readonly Comparison<bigint>[];
  order: 'asc' | 'desc';
  limit: number;
}

/** Contracts in id order: walks `entity__type_id`. */
export function listContracts(db: Database, query: ContractListQuery): Promise<ContractRow[]> {
  const conditions: SQL[] = [sql`e.type = 'CONTRACT'`];
  for (const comparison of query.comparisons) conditions.push(compare(sql`e.id`, comparison));
  if (query.ids.length > 0) conditions.push(sql`e.id in (${sql.join([...query.ids], sql`, `)})`);
  return db.rows<ContractRow>(sql`
    select ${COLUMNS}
      from entity e
      left join contract c on e.id = c.id
     where ${sql.join(conditions, sql` and `)}
     order by e.id ${sql.raw(query.order)}
     limit ${limitOf(query.limit)}`);
}

/** How `/contracts/{id}?timestamp=...` filters the entity's validity range (`int8range` operators). */
export interface RangeFilter {
  operator: 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte';
  value: bigint;
}

function rangeCondition({ operator, value }: RangeFilter): SQL {
  switch (operator) {
    case 'ne':
      return sql`not e.timestamp_range @> ${value}::bigint`;
    case 'lt':
      return sql`e.timestamp_range && int8range(null, ${value}, '()')`;
    case 'eq':
    case 'lte':
      return sql`e.timestamp_range && int8range(null, ${inclusiveRangeUpper(value)}::bigint, '(]')`;
    case 'gt':
      // after the int8 maximum there is nothing (and `(max, )` would overflow the range's canonical form)
      return value >= MAX_INT8 ? sql`false` : sql`e.timestamp_range && int8range(${value}, null, '()')`;
    case 'gte':
      return sql`e.timestamp_range && int8range(${value}, null, '[)')`;
  }
}

export type ContractKey = { id: bigint } | { evmAddress: string };

/**
 * The contract with this id or (non long-zero) EVM address (hex, no prefix). Without timestamp filters, the current
 * entity rows (up to two, so the caller can refuse an ambiguous address); with them, the latest version, current or
 * historical, whose validity range matches them all.
 */
export function contractByKey(
  db: Database,
  key: ContractKey,
  timestamps: readonly RangeFilter[],
): Promise<ContractDetailRow[]> {
  const conditions: SQL[] = [
    sql`e.type = 'CONTRACT'`,
    ...timestamps.map(rangeCondition),
    'id' in key ? sql`e.id = ${key.id}` : sql`e.evm_address = ${hexBytea(key.evmAddress)}`,
  ];
  const select = (table: string) => sql`
    select ${COLUMNS}, c.initcode, c.runtime_bytecode
      from ${sql.raw(table)} e
      left join contract c on e.id = c.id
     where ${sql.join(conditions, sql` and `)}`;
  const found =
    timestamps.length === 0
      ? sql`${select('entity')} limit 2`
      : sql`${select('entity')} union ${select('entity_history')} order by timestamp_range desc limit 1`;
  return db.rows<ContractDetailRow>(sql`
    with found as (${found})
    select found.*,
           case when found.file_id is not null and (found.file_id & ${NUM_MASK}) > ${MAX_SYSTEM_FILE_NUM} then
             (select string_agg(fd.file_data, ''::bytea order by fd.consensus_timestamp)
                from file_data fd
               where fd.entity_id = found.file_id
                 and fd.consensus_timestamp <= found.created_timestamp
                 and fd.consensus_timestamp >= (
                   select start.consensus_timestamp
                     from file_data start
                    where start.entity_id = found.file_id
                      and start.consensus_timestamp <= found.created_timestamp
                      and (start.transaction_type = 17 or (start.transaction_type = 19 and length(start.file_data) <> 0))
                    order by start.consensus_timestamp desc
                    limit 1))
           end as file_bytecode
      from found`);
}

/**
 * The ids of live entities (not deleted; a null `deleted` counts as deleted, as in the reference) with each of
 * these EVM addresses (hex, no prefix), optionally contracts only: `entity__evm_address`.
 */
export async function entityIdsByEvmAddresses(
  db: Database,
  addresses: readonly string[],
  contractsOnly: boolean,
): Promise<Map<string, bigint[]>> {
  const found = new Map<string, bigint[]>();
  if (addresses.length === 0) return found;
  const values = [...new Set(addresses.map((a) => a.toLowerCase()))].map(hexBytea);
  const rows = await db.rows<{ address: string; id: string }>(sql`
    select encode(evm_address, 'hex') as address, id
      from entity
     where deleted <> true
       and evm_address in (${sql.join(values, sql`, `)})
       ${contractsOnly ? sql`and type = 'CONTRACT'` : sql``}`);
  for (const row of rows) found.set(row.address, [...(found.get(row.address) ?? []), BigInt(row.id)]);
  return found;
}
