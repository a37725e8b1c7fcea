import { sql } from 'drizzle-orm';
import type { Database } from '../client.ts';

/** What a 404 needs to know of an entity to tell whether it is final (workers/finality/freshness.ts). */
export interface SettledEntity {
  type: string;
  /** An account with an EVM address may be hollow, and a CREATE2 at its address turns it into a contract. */
  hasEvmAddress: boolean;
}

/**
 * The type of entity `id` when it exists in a history that is append-only (docs/adr/0045); undefined otherwise. Read
 * only when a lookup by id found nothing of the type the route answers: one statement on the primary key.
 */
export async function settledEntity(db: Database, id: bigint): Promise<SettledEntity | undefined> {
  const rows = await db.rows<{ type: string; has_evm_address: boolean }>(sql`
    select type, coalesce(length(evm_address) > 0, false) as has_evm_address
      from entity
     where id = ${id} and exists (select from append_only_history)`);
  const row = rows[0];
  return row && { type: row.type, hasEvmAddress: row.has_evm_address };
}
