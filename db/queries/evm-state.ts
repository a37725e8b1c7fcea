import { sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { bytesBytea } from './bytea.ts';

/** A contract's runtime bytecode (`contract.runtime_bytecode`); there is no history of it. */
export async function runtimeBytecode(db: Database, contractId: bigint): Promise<Uint8Array | undefined> {
  const rows = await db.rows<{ runtime_bytecode: Uint8Array | null }>(sql`
    select runtime_bytecode from contract where id = ${contractId}`);
  return rows[0]?.runtime_bytecode ?? undefined;
}

/** The current value of a storage slot (32 bytes, left-padded, as `contract_state` keys it); undefined when unset. */
export async function currentSlot(db: Database, contractId: bigint, slot: Uint8Array): Promise<Uint8Array | undefined> {
  const rows = await db.rows<{ value: Uint8Array | null }>(sql`
    select value from contract_state where contract_id = ${contractId} and slot = ${bytesBytea(slot)}`);
  return rows[0]?.value ?? undefined;
}

/**
 * The value of a storage slot at `timestamp`: of its newest change at or before it, the value written, or else the
 * value read (`contract_state_change__id_slot_timestamp`). `slot` as sidecars record it: leading zero bytes trimmed.
 */
export async function historicalSlot(
  db: Database,
  contractId: bigint,
  slot: Uint8Array,
  timestamp: bigint,
): Promise<Uint8Array | undefined> {
  const rows = await db.rows<{ value: Uint8Array | null }>(sql`
    select coalesce(value_written, value_read) as value
      from contract_state_change
     where contract_id = ${contractId} and slot = ${bytesBytea(slot)} and consensus_timestamp <= ${timestamp}
     order by consensus_timestamp desc
     limit 1`);
  return rows[0]?.value ?? undefined;
}

/** The first 32 bytes of the hash of record file `index`, as BLOCKHASH answers; undefined when there is none. */
export async function blockHashPrefix(db: Database, index: bigint): Promise<string | undefined> {
  const rows = await db.rows<{ hash: string }>(sql`
    select substring(hash from 1 for 64) as hash from record_file where index = ${index} limit 1`);
  return rows[0]?.hash;
}
