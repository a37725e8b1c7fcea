import { sql } from 'drizzle-orm';
import type { Database } from '../client.ts';

export interface ScheduleRow extends Record<string, unknown> {
  executed_timestamp: string | null;
  expiration_time: string | null;
  transaction_body: Uint8Array;
}

/** The schedule with id `scheduleId` created by `at` (now when undefined); undefined when there is none. */
export async function scheduleAt(
  db: Database,
  scheduleId: bigint,
  at: bigint | undefined,
): Promise<ScheduleRow | undefined> {
  const created = at === undefined ? sql`` : sql` and consensus_timestamp <= ${at}`;
  const [row] = await db.rows<ScheduleRow>(sql`
    select executed_timestamp, expiration_time, transaction_body
      from schedule
     where schedule_id = ${scheduleId}${created}`);
  return row;
}
