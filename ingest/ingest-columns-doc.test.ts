/**
 * docs/ingest-columns.md against the migrated schema: every column of every table has a row saying the importer's
 * rule, its source and a test, or its table is listed as left empty; the tests it names exist.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../test/harness/test-database.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOC = readFileSync(path.join(ROOT, 'docs/ingest-columns.md'), 'utf8');
const LEFT_EMPTY = 'Tables the ingest leaves empty';

interface Section {
  readonly heading: string;
  readonly tables: readonly string[];
  readonly rows: readonly string[][];
}

const names = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);

function sections(doc: string): Section[] {
  return doc
    .split(/^## /m)
    .slice(1)
    .map((part) => {
      const [heading = '', ...lines] = part.split('\n');
      const rows = lines
        .filter((line) => line.startsWith('|') && !/^\|[-| ]+\|$/.test(line))
        .slice(1)
        .map((line) =>
          line
            .slice(1, -1)
            .split(/(?<!\\)\|/)
            .map((cell) => cell.trim()),
        );
      return { heading, tables: names(heading), rows };
    });
}

/** The table.column pairs a row's first cell names: `t.c` qualifies the unqualified names after it in the cell. */
function columnsOf(cell: string, tables: readonly string[]): string[] {
  const out: string[] = [];
  let qualifier: string | undefined;
  for (const name of names(cell)) {
    const dot = name.indexOf('.');
    if (dot > 0) {
      qualifier = name.slice(0, dot);
      out.push(name);
    } else if (qualifier) out.push(`${qualifier}.${name}`);
    else for (const table of tables) out.push(`${table}.${name}`);
  }
  return out;
}

const db = useTestDatabase();
let schema: Map<string, string[]>;

beforeAll(async () => {
  const { rows } = await db.sql.query<{ table: string; column: string }>(
    `select c.relname as table, a.attname as column
       from pg_class c join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where c.relkind in ('r', 'p') and c.relnamespace = 'public'::regnamespace and not c.relispartition
      order by c.relname, a.attnum`,
  );
  schema = new Map();
  for (const row of rows) schema.set(row.table, [...(schema.get(row.table) ?? []), row.column]);
});

describe('docs/ingest-columns.md', () => {
  const all = sections(DOC);
  const described = all.filter((s) => s.tables.length > 0);
  const empty = all.find((s) => s.heading.startsWith(LEFT_EMPTY));

  it('describes or lists as left empty every table of the schema, and names no other', () => {
    const documented = new Set(described.flatMap((s) => s.tables));
    const left = new Set(empty?.rows.flatMap((row) => names(row[0] ?? '')) ?? []);
    const missing = [...schema.keys()].filter((table) => !documented.has(table) && !left.has(table));
    expect(missing).toEqual([]);
    expect([...documented, ...left].filter((table) => !schema.has(table))).toEqual([]);
  });

  it("has a row for every column of every table it describes (a history table has its base table's)", () => {
    const covered = new Set<string>();
    for (const section of described) {
      const bases = section.tables.filter(
        (table) => !(table.endsWith('_history') && section.tables.includes(table.slice(0, -8))),
      );
      for (const row of section.rows) for (const column of columnsOf(row[0] ?? '', bases)) covered.add(column);
      for (const table of section.tables) {
        const base =
          table.endsWith('_history') && section.tables.includes(table.slice(0, -8)) ? table.slice(0, -8) : table;
        for (const column of schema.get(table) ?? [])
          if (covered.has(`${base}.${column}`)) covered.add(`${table}.${column}`);
      }
    }
    const missing = described
      .flatMap((s) => s.tables)
      .flatMap((table) => (schema.get(table) ?? []).map((column) => `${table}.${column}`))
      .filter((column) => !covered.has(column));
    expect(missing).toEqual([]);
  });

  it('names only columns the schema has', () => {
    // A qualified name must be its table's column; an unqualified one a column of one of its section's tables.
    const absent = described.flatMap((section) =>
      section.rows.flatMap((row) =>
        columnsOf(row[0] ?? '', section.tables)
          .map((name) => name.split('.') as [string, string])
          .filter(([table, column]) =>
            section.tables.includes(table)
              ? !section.tables.some((t) => (schema.get(t) ?? []).includes(column))
              : !(schema.get(table) ?? []).includes(column),
          )
          .map(([table, column]) => `${table}.${column}`),
      ),
    );
    expect(absent).toEqual([]);
  });

  it("gives every row the importer's rule, its source and a test", () => {
    const incomplete = described.flatMap((section) =>
      section.rows.filter((row) => row.length !== 4 || row.some((cell) => cell.length === 0)).map((row) => row[0]),
    );
    expect(incomplete).toEqual([]);
  });

  it('names tests that exist', () => {
    const testFiles = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
        const relative = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(relative);
        else if (entry.name.endsWith('.test.ts')) testFiles.add(relative);
      }
    };
    for (const dir of ['ingest', 'test', 'db', 'workers']) walk(dir);
    const basenames = new Set([...testFiles].map((file) => path.basename(file)));
    const named = names(DOC).filter((name) => name.endsWith('.test.ts'));
    const missing = named.filter((name) =>
      name.includes('/') ? !existsSync(path.join(ROOT, name)) : !basenames.has(name),
    );
    expect(missing).toEqual([]);
  });
});
