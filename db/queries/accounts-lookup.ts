import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { bytesBytea } from './bytea.ts';

/**
 * How a deleted flag excludes entities from a lookup. The reference's JavaScript API keeps rows whose flag is
 * null when matching an alias (`coalesce(deleted, false) <> true`), but not when matching an EVM address
 * (`deleted <> true`); its Java API drops null flags in both.
 */
export type AliveRule = 'null-is-alive' | 'null-is-not-alive';

const aliveCondition = (rule: AliveRule) =>
  rule === 'null-is-alive' ? sql`coalesce(deleted, false) <> true` : sql`deleted <> true`;

/** An alias (with the rule its route keeps deleted flags by) or a 20-byte EVM address. */
export type EntityAddress = { alias: Uint8Array; rule: AliveRule } | { evmAddress: Uint8Array };

/** The ids of the live entities with this alias or EVM address: at most two, enough to tell one match from several. */
export const liveEntityIds = (address: EntityAddress): SQL =>
  'alias' in address
    ? sql`select id from entity where ${aliveCondition(address.rule)} and alias = ${bytesBytea(address.alias)} limit 2`
    : sql`select id from entity where deleted <> true and evm_address = ${bytesBytea(address.evmAddress)} limit 2`;

/** Ids of the live entities with this alias: at most two. */
export async function entityIdsByAlias(db: Database, alias: Uint8Array, rule: AliveRule): Promise<bigint[]> {
  const rows = await db.rows<{ id: string }>(liveEntityIds({ alias, rule }));
  return rows.map((row) => BigInt(row.id));
}

/** Ids of the live entities with this 20-byte EVM address: at most two. */
export async function entityIdsByEvmAddress(db: Database, address: Uint8Array): Promise<bigint[]> {
  const rows = await db.rows<{ id: string }>(liveEntityIds({ evmAddress: address }));
  return rows.map((row) => BigInt(row.id));
}

/** Whether an entity (of any type) has this id. */
export async function entityExists(db: Database, id: bigint): Promise<boolean> {
  const rows = await db.rows<{ type: string }>(sql`select type from entity where id = ${id}`);
  return rows.length > 0;
}
