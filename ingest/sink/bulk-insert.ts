/**
 * Multi-row inserts: one statement per table and file, every column sent as one `text[]` parameter and
 * cast back in `unnest`. Thousands of rows cost one round trip.
 */
import type pg from 'pg';
import type { TableSchema } from './schema.ts';
import { sqlText } from './sql-text.ts';

export type Row = Readonly<Record<string, unknown>>;

/** The union of the rows' column names, in first-seen order. */
export function columnNames(rows: readonly Row[]): string[] {
  const names = new Set<string>();
  for (const row of rows) for (const key in row) names.add(key);
  return [...names];
}

/** The column list of `rows` (the union of their keys) and their text arrays. */
export function columnArrays(schema: TableSchema, table: string, rows: readonly Row[], names?: readonly string[]) {
  const columns = (names ?? columnNames(rows)).map((name) => schema.column(table, name));
  const arrays = columns.map((column) => rows.map((row) => sqlText(row[column.name], column.json)));
  return { columns, arrays };
}

export async function bulkInsert(
  client: pg.ClientBase,
  schema: TableSchema,
  table: string,
  rows: readonly Row[],
  onConflict = '',
): Promise<void> {
  if (rows.length === 0) return;
  const { columns, arrays } = columnArrays(schema, table, rows);
  const list = columns.map((c) => `"${c.name}"`).join(', ');
  const casts = columns.map((c, i) => `u.c${i}::${c.type}`).join(', ');
  const params = columns.map((_, i) => `$${i + 1}::text[]`).join(', ');
  const aliases = columns.map((_, i) => `c${i}`).join(', ');
  await client.query(
    `insert into "${table}" (${list}) select ${casts} from unnest(${params}) as u(${aliases}) ${onConflict}`,
    arrays,
  );
}
