import { sql } from 'drizzle-orm';
import type { Database } from '../client.ts';

/**
 * The highest encoded entity id between `lowest` and `highest` (one shard and realm), of the entities created at or
 * before `timestamp` when given (entities of the genesis balance file have no `created_timestamp`: created before
 * anything). Now, it is the last entry of the primary key. At a timestamp, a binary search over the id range: new
 * entities take ever higher numbers, so "the first entity at or above x was created by then" holds up to the answer
 * and not past it; each of its at most 64 steps is one probe of the primary key, however many entities came later.
 */
export async function highestEntityId(
  db: Database,
  range: { lowest: bigint; highest: bigint },
  timestamp: bigint | undefined,
): Promise<bigint | undefined> {
  const { lowest, highest } = range;
  if (timestamp === undefined) {
    const rows = await db.rows<{ id: string }>(
      sql`select id from entity where id between ${lowest} and ${highest} order by id desc limit 1`,
    );
    return rows[0]?.id === undefined ? undefined : BigInt(rows[0].id);
  }
  const createdBy = (id: unknown) => sql`coalesce((
      select created_timestamp is null or created_timestamp <= ${timestamp}
        from entity where id >= ${id} and id <= ${highest} order by id limit 1), false)`;
  const rows = await db.rows<{ id: string }>(sql`
    with recursive search(low, high) as (
      select ${lowest}::bigint, ${highest}::bigint
      union all
      select case when found then middle else low end, case when found then high else middle - 1 end
        from (select low, high, middle, ${createdBy(sql`middle`)} as found
                from (select low, high, low + (high - low + 1) / 2 as middle from search where low < high) halves
             ) probed
    )
    select e.id from entity e, (select low from search where low >= high) answer
     where e.id = answer.low and (e.created_timestamp is null or e.created_timestamp <= ${timestamp})`);
  return rows[0]?.id === undefined ? undefined : BigInt(rows[0].id);
}
