import { sql } from 'drizzle-orm';
import type { Database } from '../client.ts';

/**
 * The consensus timestamp of a file's last write of any kind, or undefined for a file never written: a cheap test of
 * whether a cached copy of the file is still current. Uses the `file_data` primary key (entity, timestamp).
 */
export async function lastFileWrite(db: Database, fileId: bigint): Promise<bigint | undefined> {
  const [row] = await db.rows<{ consensus_timestamp: string | null }>(sql`
    select max(consensus_timestamp) as consensus_timestamp from file_data where entity_id = ${fileId}`);
  return row?.consensus_timestamp == null ? undefined : BigInt(row.consensus_timestamp);
}
