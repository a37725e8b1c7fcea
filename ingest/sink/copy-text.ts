/**
 * COPY data written as rows are derived: each plain insert becomes one line of its table's text (or one row of
 * COPY's binary format, copy-binary.ts, for the tables whose every column has one) at once, so
 * a file's hundreds of thousands of rows never live as objects until the write (they used to survive every
 * young-generation collection, which cost as much as deriving them). The bytes sit outside the JS heap.
 *
 * Rows of one table usually name the same columns in the same order (one object literal); each distinct
 * column list is its own group. At write time every group's COPY names the union of the table's columns,
 * the ones a group lacks as NULL, exactly as one COPY of all the rows would (copy-insert.ts).
 */
import type { Row } from './bulk-insert.ts';
import { ByteText } from './byte-text.ts';
import { BinaryText, type ColumnKind } from './copy-binary.ts';
import { byteaText, sqlText } from './sql-text.ts';

const NEEDS_ESCAPE = /[\\\t\n\r]/;

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

export interface CopyGroup {
  readonly columns: readonly string[];
  readonly json: readonly boolean[];
  /** Set when the group is in COPY's binary format (copy-binary.ts): each column's kind. */
  readonly kinds: readonly ColumnKind[] | undefined;
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
  private readonly kinds: ReadonlyMap<string, ColumnKind>;
  /** Tables whose every column has a binary form: their rows are written in COPY's binary format. */
  private readonly binaryTables: ReadonlySet<string>;

  /** `kinds`: the kind of every `table.column` (schema.ts); a column it lacks is text, not JSON. */
  constructor(kinds: ReadonlyMap<string, ColumnKind>) {
    this.kinds = kinds;
    const textTables = new Set<string>();
    const tables = new Set<string>();
    for (const [column, kind] of kinds) {
      const table = column.slice(0, column.indexOf('.'));
      tables.add(table);
      if (kind === 'other') textTables.add(table);
    }
    this.binaryTables = new Set([...tables].filter((table) => !textTables.has(table)));
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
      if (group.kinds) {
        if (!(group.text as BinaryText).rowOf(row, group.columns, group.kinds)) continue;
      } else {
        const line = lineOf(row, group);
        if (line === undefined) continue;
        group.text.append(line);
      }
      group.rows++;
      return;
    }
    const columns = Object.keys(row);
    const kinds = columns.map((c) => this.kinds.get(`${table}.${c}`) ?? 'text');
    const json = kinds.map((kind) => kind === 'json' || kind === 'jsonb');
    if (this.binaryTables.has(table)) {
      const text = new BinaryText();
      text.rowOf(row, columns, kinds);
      groups.push({ columns, json, kinds, text, rows: 1 });
    } else {
      const text = new ByteText();
      text.append(copyLine(row, columns, json));
      groups.push({ columns, json, kinds: undefined, text, rows: 1 });
    }
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
