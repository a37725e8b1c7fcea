import { sql } from 'drizzle-orm';
import type { Database } from '../client.ts';

/**
 * The highest encoded entity id between `lowest` and `highest` (one shard and realm), of the entities created at or
 * before `timestamp` when given: a backward scan of the primary key that stops at the first match, since new
 * entities take ever higher numbers. Entities of the genesis balance file have no `created_timestamp`.
 */
export async function highestEntityId(
  db: Database,
  range: { lowest: bigint; highest: bigint },
  timestamp: bigint | undefined,
): Promise<bigint | undefined> {
  const created =
    timestamp === undefined ? sql`` : sql`and (created_timestamp <= ${timestamp} or created_timestamp is null)`;
  const rows = await db.rows<{ id: string }>(sql`
    select id from entity
     where id between ${range.lowest} and ${range.highest} ${created}
     order by id desc
     limit 1`);
  const id = rows[0]?.id;
  return id === undefined ? undefined : BigInt(id);
}
