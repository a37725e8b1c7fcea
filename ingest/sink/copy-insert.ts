/**
 * Plain inserts through COPY FROM STDIN (text format): the fastest way Postgres takes many rows, with no
 * statement parsing or array parameters. Values use the same text forms as every other write (sql-text.ts),
 * escaped for COPY.
 */

import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { columnNames, type Row } from './bulk-insert.ts';
import type { TableSchema } from './schema.ts';
import { sqlText } from './sql-text.ts';

const NEEDS_ESCAPE = /[\\\t\n\r]/;

function copyEscape(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  // Backslash first: the others introduce backslashes.
  return text.replaceAll('\\', '\\\\').replaceAll('\t', '\\t').replaceAll('\n', '\\n').replaceAll('\r', '\\r');
}

/** One field in COPY text form; bytes skip the generic escaping (their `\x` is written pre-escaped). */
function copyField(value: unknown, json: boolean): string {
  if (value instanceof Uint8Array && !json) {
    return `\\\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
  }
  const text = sqlText(value, json);
  return text === null ? '\\N' : copyEscape(text);
}

export async function copyInsert(
  client: pg.ClientBase,
  schema: TableSchema,
  table: string,
  rows: readonly Row[],
): Promise<void> {
  if (rows.length === 0) return;
  const names = columnNames(rows);
  const json = names.map((name) => {
    const type = schema.column(table, name).type;
    return type === 'jsonb' || type === 'json';
  });
  const stream = client.query(copyFrom(`copy "${table}" (${names.map((n) => `"${n}"`).join(', ')}) from stdin`));
  // Rows are turned into text chunk by chunk (~1 MB), so memory stays flat for large files.
  async function* chunks() {
    let chunk = '';
    for (const row of rows) {
      for (let i = 0; i < names.length; i++) {
        chunk += (i === 0 ? '' : '\t') + copyField(row[names[i] as string], json[i] as boolean);
      }
      chunk += '\n';
      if (chunk.length > 1 << 20) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  }
  await pipeline(Readable.from(chunks()), stream);
}
