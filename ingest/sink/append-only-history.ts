import type pg from 'pg';

/** Who writes the history of a database that carries the row (docs/adr/0045-final-answers-at-the-edge.md). */
export const APPEND_ONLY_WRITER = 'edge-mirror ingest';

/**
 * Records that this database's history is written by this ingest, which commits each record file's (or block's)
 * rows in one transaction after the previous one's and never changes a committed file's rows afterwards: the
 * Worker marks answers about that history final only while the row exists. Idempotent; run when the ingest starts.
 */
export async function declareAppendOnlyHistory(client: pg.ClientBase): Promise<void> {
  await client.query('insert into append_only_history (writer) values ($1) on conflict do nothing', [
    APPEND_ONLY_WRITER,
  ]);
}
