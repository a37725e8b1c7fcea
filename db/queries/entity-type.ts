import { sql } from 'drizzle-orm';
import type { Database } from '../client.ts';

/** What a 404 needs to know of an entity to tell whether it is final (workers/finality/freshness.ts). */
export interface SettledEntity {
  type: string;
  /** An account with an EVM address may be hollow, and a CREATE2 at its address turns it into a contract. */
  hasEvmAddress: boolean;
  /**
   * Whether the row's type is known: the ingest saw the entity created, or it is a system entity of the network's
   * genesis (0.0.1000 and below). A row the ingest made for an id first seen in a transfer (data starting mid-chain)
   * says ACCOUNT by default, and a later contract update can make it a contract.
   */
  typeKnown: boolean;
}

/** The highest entity num of the network's system entities, created at genesis. */
const MAX_SYSTEM_NUM = 1000;

/**
 * Entity `id` when it exists in a history that is append-only (docs/adr/0045); undefined otherwise. Read only when
 * a lookup by id found nothing of the type the route answers: one statement on the primary key.
 */
export async function settledEntity(db: Database, id: bigint): Promise<SettledEntity | undefined> {
  const rows = await db.rows<{ type: string; has_evm_address: boolean; type_known: boolean }>(sql`
    select type, coalesce(length(evm_address) > 0, false) as has_evm_address,
           (created_timestamp is not null or num <= ${MAX_SYSTEM_NUM}) as type_known
      from entity
     where id = ${id} and exists (select from append_only_history)`);
  const row = rows[0];
  return row && { type: row.type, hasEvmAddress: row.has_evm_address, typeKnown: row.type_known };
}
