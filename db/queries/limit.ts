import { type SQL, sql } from 'drizzle-orm';

/**
 * A row limit written into the statement text instead of bound as a parameter. Postgres may plan a prepared
 * statement once for all its executions (a generic plan: db/local/sql-proxy.ts); with `limit $n` that plan must
 * assume a tenth of the table is wanted and picks scans and sorts that turn a 25-row page into 100 ms or more.
 * With the number in the text, each page size is its own statement, planned for that many rows.
 */
export function limitOf(rows: number): SQL {
  if (!Number.isSafeInteger(rows) || rows < 0)
    throw new RangeError(`a row limit must be a non-negative integer: ${rows}`);
  return sql.raw(String(rows));
}
