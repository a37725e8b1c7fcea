import { sql } from 'drizzle-orm';
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

/** Ids of the live entities with this alias: at most two, enough to tell one match from several. */
export async function entityIdsByAlias(db: Database, alias: Uint8Array, rule: AliveRule): Promise<bigint[]> {
  const rows = await db.rows<{ id: string }>(sql`
    select id from entity where ${aliveCondition(rule)} and alias = ${bytesBytea(alias)} limit 2`);
  return rows.map((row) => BigInt(row.id));
}

/** Ids of the live entities with this 20-byte EVM address: at most two. */
export async function entityIdsByEvmAddress(db: Database, address: Uint8Array): Promise<bigint[]> {
  const rows = await db.rows<{ id: string }>(sql`
    select id from entity where deleted <> true and evm_address = ${bytesBytea(address)} limit 2`);
  return rows.map((row) => BigInt(row.id));
}

/** Whether an entity (of any type) has this id. */
export async function entityExists(db: Database, id: bigint): Promise<boolean> {
  const rows = await db.rows<{ type: string }>(sql`select type from entity where id = ${id}`);
  return rows.length > 0;
}
