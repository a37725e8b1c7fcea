import { sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { COMMITTED_END } from './committed-end.ts';

/** The transaction types that write file contents: a create or an update starts a file version, appends extend it. */
const FILE_CREATE = 17;
const FILE_UPDATE = 19;

export interface SystemFileRow extends Record<string, unknown> {
  entity_id: string;
  /** The last write's consensus timestamp; null when no version of the file lies in the range. */
  consensus_timestamp: string | null;
  /** The version's contents: its create or update followed by every later append up to the upper bound. */
  file_data: Uint8Array | null;
  /** `COMMITTED_END` of the statement. */
  committed_end: string | null;
}

/**
 * Each file's latest version with a create or non-empty update in [lower, upper], as the reference assembles it:
 * that write and every later write of the file up to `upper` (empty updates excluded), concatenated in consensus
 * order. One row per requested file, in the order given; one statement.
 */
export function systemFilesAt(
  db: Database,
  fileIds: readonly bigint[],
  lower: bigint,
  upper: bigint,
): Promise<SystemFileRow[]> {
  const ids = sql.join(
    fileIds.map((id, i) => sql`(${id}::bigint, ${i})`),
    sql`, `,
  );
  return db.rows<SystemFileRow>(sql`
    select ids.id as entity_id, version.consensus_timestamp, version.file_data, ${COMMITTED_END} as committed_end
      from (values ${ids}) as ids(id, position)
      cross join lateral (
        select max(f.consensus_timestamp) as consensus_timestamp,
               string_agg(f.file_data, ''::bytea order by f.consensus_timestamp) as file_data
          from file_data f
         where f.entity_id = ids.id
           and f.consensus_timestamp >= (
                 select s.consensus_timestamp
                   from file_data s
                  where s.entity_id = ids.id
                    and s.consensus_timestamp >= ${lower}
                    and s.consensus_timestamp <= ${upper}
                    and (s.transaction_type = ${FILE_CREATE}
                         or (s.transaction_type = ${FILE_UPDATE} and length(s.file_data) <> 0))
                  order by s.consensus_timestamp desc
                  limit 1)
           and f.consensus_timestamp <= ${upper}
           and (f.transaction_type <> ${FILE_UPDATE} or length(f.file_data) <> 0)
      ) as version
     order by ids.position`);
}
