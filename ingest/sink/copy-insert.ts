/**
 * Plain inserts through COPY FROM STDIN (text format, or binary for rows derived as binary, copy-binary.ts):
 * the fastest way Postgres takes many rows, with no statement parsing or array parameters. Values use the same text forms as every other write (sql-text.ts),
 * escaped for COPY (copy-text.ts).
 */

import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { columnNames, type Row } from './bulk-insert.ts';
import { BINARY_HEADER, BINARY_TRAILER, withNullFields } from './copy-binary.ts';
import { type CopyGroup, copyLine, unionColumns, withNulls } from './copy-text.ts';
import type { TableSchema } from './schema.ts';

const CHUNK = 1 << 20;

async function copyBytes(
  client: pg.ClientBase,
  table: string,
  columns: readonly string[],
  chunks: Iterable<Uint8Array>,
  binary = false,
) {
  const list = columns.map((n) => `"${n}"`).join(', ');
  const stream = client.query(copyFrom(`copy "${table}" (${list}) from stdin${binary ? ' with (format binary)' : ''}`));
  await pipeline(Readable.from(chunks), stream);
}

function* slices(bytes: Uint8Array): Generator<Uint8Array> {
  for (let offset = 0; offset < bytes.length; offset += CHUNK) yield bytes.subarray(offset, offset + CHUNK);
}

export async function copyInsert(
  client: pg.ClientBase,
  schema: TableSchema,
  table: string,
  rows: readonly Row[],
): Promise<void> {
  if (rows.length === 0) return;
  const names = columnNames(rows);
  const json = names.map((name) => schema.column(table, name).json);
  // Rows are turned into text chunk by chunk (~1 MB), so memory stays flat for large files.
  function* chunks() {
    let chunk = '';
    for (const row of rows) {
      chunk += copyLine(row, names, json);
      if (chunk.length > CHUNK) {
        yield Buffer.from(chunk);
        chunk = '';
      }
    }
    if (chunk) yield Buffer.from(chunk);
  }
  await copyBytes(client, table, names, chunks());
}

/**
 * A table's rows already in COPY text or binary rows (copy-text.ts): one COPY per column group, absent columns
 * NULL.
 */
export async function copyGroups(client: pg.ClientBase, table: string, groups: readonly CopyGroup[]): Promise<void> {
  const union = unionColumns(groups);
  for (const group of groups) {
    if (group.rows === 0) continue;
    const missing = union.filter((c) => !group.columns.includes(c));
    const columns = [...group.columns, ...missing];
    const bytes = group.text.bytes();
    if (group.kinds) {
      const rows = missing.length > 0 ? withNullFields(bytes, missing.length) : bytes;
      await copyBytes(client, table, columns, [BINARY_HEADER, ...slices(rows), BINARY_TRAILER], true);
    } else {
      await copyBytes(client, table, columns, slices(missing.length > 0 ? withNulls(bytes, missing.length) : bytes));
    }
  }
}
