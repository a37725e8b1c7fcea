import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { bytesBytea } from './bytea.ts';

/** An entity as the EVM reads it. int8 columns are strings. */
export interface EvmEntityRow extends Record<string, unknown> {
  id: string;
  type: 'UNKNOWN' | 'ACCOUNT' | 'CONTRACT' | 'FILE' | 'TOPIC' | 'TOKEN' | 'SCHEDULE';
  evm_address: Uint8Array | null;
  alias: Uint8Array | null;
  key: Uint8Array | null;
  deleted: boolean | null;
  balance: string | null;
  ethereum_nonce: string | null;
  created_timestamp: string | null;
  expiration_timestamp: string | null;
  auto_renew_period: string | null;
  auto_renew_account_id: string | null;
  max_automatic_token_associations: number | null;
  receiver_sig_required: boolean | null;
  memo: string;
  delegation_address: Uint8Array | null;
}

const COLUMNS = sql.raw(`id, type, evm_address, alias, key, deleted, balance, ethereum_nonce, created_timestamp,
  expiration_timestamp, auto_renew_period, auto_renew_account_id, max_automatic_token_associations,
  receiver_sig_required, memo, delegation_address`);

/** The entity `id` now: the primary key of `entity`. */
export async function currentEvmEntity(db: Database, id: bigint): Promise<EvmEntityRow | undefined> {
  const rows = await db.rows<EvmEntityRow>(sql`select ${COLUMNS} from entity where id = ${id}`);
  return rows[0];
}

/**
 * The entity `id` as it was at `timestamp`: the current row if it was already valid then, else the newest history
 * row valid from at or before it (`entity_history__id_lower_timestamp`). Its balance is the stored one; the EVM
 * reads the historical balance with `historicalBalance`.
 */
export async function historicalEvmEntity(
  db: Database,
  id: bigint,
  timestamp: bigint,
): Promise<EvmEntityRow | undefined> {
  const rows = await db.rows<EvmEntityRow & { lower: string }>(sql`
    (select ${COLUMNS}, lower(timestamp_range) as lower
       from entity
      where id = ${id} and lower(timestamp_range) <= ${timestamp})
    union all
    (select ${COLUMNS}, lower(timestamp_range) as lower
       from entity_history
      where id = ${id} and lower(timestamp_range) <= ${timestamp}
      order by lower(timestamp_range) desc
      limit 1)
    order by lower desc
    limit 1`);
  return rows[0];
}

/**
 * The id of the entity whose EVM address, or 20-byte alias, is `address`, created at or before `timestamp` when
 * given (an EVM address is set when the entity is created and never changes): the partial indexes on
 * `evm_address` and `alias`. A live entity wins over a deleted one that had the address before it.
 */
export async function evmEntityIdByAddress(
  db: Database,
  address: Uint8Array,
  timestamp: bigint | undefined,
): Promise<bigint | undefined> {
  const bytes = bytesBytea(address);
  const created: SQL = timestamp === undefined ? sql`` : sql`and created_timestamp <= ${timestamp}`;
  const rows = await db.rows<{ id: string }>(sql`
    select id from (
      (select id, deleted from entity where evm_address = ${bytes} ${created} order by deleted is true, id desc limit 1)
      union all
      (select id, deleted from entity where alias = ${bytes} ${created} order by deleted is true, id desc limit 1)
    ) matches
    order by deleted is true, id desc
    limit 1`);
  const id = rows[0]?.id;
  return id === undefined ? undefined : BigInt(id);
}
