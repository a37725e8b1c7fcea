/**
 * The account that holds a key alias (rosetta/app/persistence/account.go `GetAccountId`): its id, when an account
 * not deleted has the alias. The Construction API maps an aliased payer to it.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../client.ts';

export async function accountIdByAlias(db: Database, alias: Uint8Array): Promise<bigint | undefined> {
  const [row] = await db.rows<{ id: string }>(sql`
    select id from entity
     where alias = ${alias} and (deleted is null or deleted is false)
     limit 1`);
  return row ? BigInt(row.id) : undefined;
}
