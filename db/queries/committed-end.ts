import { sql } from 'drizzle-orm';

/**
 * The consensus end of the newest record file, when the database's history is append-only (its
 * `append_only_history` row: docs/adr/0045-final-answers-at-the-edge.md), else NULL. A statement selects it beside
 * the rows it vouches for, so both come from one snapshot: every row stamped at or below it is in that snapshot
 * (the ingest commits a file's rows together with its record_file row, files in order), and every row written
 * later is stamped after it. An uncorrelated subquery: Postgres runs it once per statement, on record_file's
 * primary key.
 */
export const COMMITTED_END = sql`(select max(consensus_end) from record_file
                                   where exists (select from append_only_history))`;

/** The block number of the newest record file, under the same condition as `COMMITTED_END`. */
export const COMMITTED_BLOCK = sql`(select max(index) from record_file where exists (select from append_only_history))`;

/** A `COMMITTED_END` or `COMMITTED_BLOCK` column as the driver returns it (int8 as text), as a bigint. */
export function committedValue(value: unknown): bigint | null {
  return typeof value === 'string' || typeof value === 'number' ? BigInt(value) : null;
}

/**
 * Whether the database's history is append-only. Enough for a row found by its key that can never change once
 * written (a block): being in the snapshot, it is committed, and final exactly when the history is append-only.
 */
export const APPEND_ONLY = sql`exists (select from append_only_history)`;
