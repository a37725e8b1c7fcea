/**
 * COPY text written as rows are derived: each plain insert becomes one line of its table's text at once, so
 * a file's hundreds of thousands of rows never live as objects until the write (they used to survive every
 * young-generation collection, which cost as much as deriving them). The bytes sit outside the JS heap.
 *
 * Rows of one table usually name the same columns in the same order (one object literal); each distinct
 * column list is its own group. At write time every group's COPY names the union of the table's columns,
 * the ones a group lacks as NULL, exactly as one COPY of all the rows would (copy-insert.ts).
 */
import type { Row } from './bulk-insert.ts';
import { byteaText, sqlText } from './sql-text.ts';

const NEEDS_ESCAPE = /[\\\t\n\r]/;

/** UTF-16 units gathered before ByteText encodes them. */
const PENDING_LIMIT = 16 * 1024;

function copyEscape(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  // Backslash first: the others introduce backslashes.
  return text.replaceAll('\\', '\\\\').replaceAll('\t', '\\t').replaceAll('\n', '\\n').replaceAll('\r', '\\r');
}

/** One field in COPY text form; bytes skip the generic escaping (their `\x` is written pre-escaped). */
export function copyField(value: unknown, json: boolean): string {
  if (value === null || value === undefined) return '\\N';
  if (!json) {
    switch (typeof value) {
      case 'bigint':
      case 'number':
        return value.toString();
      case 'boolean':
        return value ? 't' : 'f';
      case 'string':
        return copyEscape(value);
      default:
        break;
    }
    // COPY unescapes `\\` to the `\` of bytea's hex form.
    if (value instanceof Uint8Array) return `\\${byteaText(value)}`;
  }
  const text = sqlText(value, json);
  return text === null ? '\\N' : copyEscape(text);
}

/** One row as a COPY text line (with its newline). */
export function copyLine(row: Row, columns: readonly string[], json: readonly boolean[]): string {
  let line = '';
  for (let i = 0; i < columns.length; i++) {
    if (i > 0) line += '\t';
    line += copyField(row[columns[i] as string], json[i] as boolean);
  }
  return `${line}\n`;
}

/**
 * A growing UTF-8 byte buffer. Lines are gathered into a string and encoded a few kilobytes at a time: one
 * encoding call per row cost more than the rows' encoding itself.
 */
export class ByteText {
  private buffer = Buffer.allocUnsafe(64 * 1024);
  private pending = '';
  private written = 0;

  append(text: string): void {
    this.pending += text;
    if (this.pending.length >= PENDING_LIMIT) this.flush();
  }

  private flush(): void {
    const text = this.pending;
    if (text.length === 0) return;
    this.pending = '';
    // A UTF-16 unit is at most 3 UTF-8 bytes.
    const needed = this.written + text.length * 3;
    if (needed > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.buffer.length * 2));
      this.buffer.copy(grown, 0, 0, this.written);
      this.buffer = grown;
    }
    this.written += this.buffer.write(text, this.written);
  }

  bytes(): Buffer {
    this.flush();
    return this.buffer.subarray(0, this.written);
  }

  /** The backing memory, to move it to another thread (the text is unusable here afterwards). */
  transferable(): ArrayBuffer {
    this.flush();
    return this.buffer.buffer as ArrayBuffer;
  }

  /** A ByteText that crossed a thread (structured clone): methods back, its bytes a Buffer again. */
  static revive(data: ByteText): ByteText {
    const text = Object.setPrototypeOf(data, ByteText.prototype) as ByteText;
    const bytes = text.buffer as Uint8Array;
    text.buffer = Buffer.from(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
    return text;
  }
}

export interface CopyGroup {
  readonly columns: readonly string[];
  readonly json: readonly boolean[];
  readonly text: ByteText;
  rows: number;
}

/** The row as a COPY text line when it names exactly `group`'s columns in order, else undefined (one pass). */
function lineOf(row: Row, group: CopyGroup): string | undefined {
  const { columns, json } = group;
  let line = '';
  let i = 0;
  for (const key in row) {
    if (columns[i] !== key) return undefined;
    if (i > 0) line += '\t';
    line += copyField(row[key], json[i] as boolean);
    i++;
  }
  return i === columns.length ? `${line}\n` : undefined;
}

export class CopyTables {
  readonly tables = new Map<string, CopyGroup[]>();
  private readonly jsonColumns: ReadonlySet<string>;

  /** `jsonColumns`: `table.column` of every json/jsonb column (their values are written as JSON). */
  constructor(jsonColumns: ReadonlySet<string>) {
    this.jsonColumns = jsonColumns;
  }

  /** CopyTables that crossed a thread (structured clone). */
  static revive(data: CopyTables): CopyTables {
    const tables = Object.setPrototypeOf(data, CopyTables.prototype) as CopyTables;
    for (const groups of tables.tables.values()) for (const group of groups) ByteText.revive(group.text);
    return tables;
  }

  /** The memory of every table's text, to move it to another thread. */
  transferables(): ArrayBuffer[] {
    return [...this.tables.values()].flatMap((groups) => groups.map((g) => g.text.transferable()));
  }

  add(table: string, row: Row): void {
    let groups = this.tables.get(table);
    if (!groups) {
      groups = [];
      this.tables.set(table, groups);
    }
    for (const group of groups) {
      const line = lineOf(row, group);
      if (line !== undefined) {
        group.text.append(line);
        group.rows++;
        return;
      }
    }
    const columns = Object.keys(row);
    const json = columns.map((c) => this.jsonColumns.has(`${table}.${c}`));
    const group: CopyGroup = { columns, json, text: new ByteText(), rows: 0 };
    groups.push(group);
    group.text.append(copyLine(row, columns, json));
    group.rows++;
  }
}

/** The table's columns over all its groups, in first-seen order (copy-insert.ts's `columnNames`). */
export function unionColumns(groups: readonly CopyGroup[]): string[] {
  const names = new Set<string>();
  for (const group of groups) for (const column of group.columns) names.add(column);
  return [...names];
}

/** `text` with `count` NULL fields added to the end of every line. */
export function withNulls(text: Uint8Array, count: number): Buffer {
  const suffix = Buffer.from('\t\\N'.repeat(count));
  const parts: Uint8Array[] = [];
  let start = 0;
  for (let i = text.indexOf(10); i >= 0; i = text.indexOf(10, start)) {
    parts.push(text.subarray(start, i), suffix, text.subarray(i, i + 1));
    start = i + 1;
  }
  return Buffer.concat(parts);
}
