import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import type { Row } from './bulk-insert.ts';
import { copyGroups } from './copy-insert.ts';
import { type CopyGroup, CopyTables } from './copy-text.ts';
import { TableSchema } from './schema.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  // One column of each kind, over the reference's domains and enum where it has them.
  await db.sql.query(`create table copy_kinds (
    id int8 not null, entity entity_id, small int2, number int4, flag boolean, bytes bytea, label text,
    errata errata_type, document jsonb, plain json, ids bigint[], hashes bytea[], defaulted int8 default 7)`);
  await db.sql.query('create table copy_kinds_text (like copy_kinds including defaults, range int8range)');
}, 60_000);
afterAll(async () => {
  await db?.drop();
});

const ROWS: Row[] = [
  {
    id: 1n,
    entity: 9_223_372_036_854_775_807n,
    small: -32_768,
    number: 2_147_483_647,
    flag: true,
    bytes: new Uint8Array([0, 9, 10, 92, 255]),
    label: 'tab\there, newline\nthere, back\\slash, é, 😀',
    errata: 'INSERT',
    document: { amount: -9_223_372_036_854_775_808n, list: [1, 'two', null], nested: { ok: false } },
    plain: [{ a: 1n }],
    ids: [1n, -2n, 3],
    hashes: [new Uint8Array([1, 2]), new Uint8Array(0)],
  },
  { id: 2n, entity: 0n, small: 0, number: -1, flag: false, bytes: new Uint8Array(0), label: '', ids: [], hashes: [] },
  // Other column lists: a NULL everywhere, strings where numbers and bytes go, a group without `flag`.
  { id: 3n, entity: null, small: null, number: null, flag: null, bytes: null, label: null, ids: null },
  { id: '4', entity: 5, bytes: '\\xdeadbeef', ids: [7n, null], document: 'a string' },
  { id: 5n, bytes: 'plain', label: 42n, errata: 'DELETE' },
];

async function contents(table: string): Promise<unknown[]> {
  const result = await db.sql.query(
    `select id, entity, small, number, flag, bytes, label, errata, document::text, plain::text, ids, hashes, defaulted
       from ${table} order by id`,
  );
  return result.rows;
}

async function write(table: string): Promise<CopyGroup[]> {
  const kinds = (await TableSchema.load(db.sql)).columnKinds();
  const copies = new CopyTables(kinds);
  for (const row of ROWS) copies.add(table, row);
  const groups = copies.tables.get(table) ?? [];
  await copyGroups(db.sql, table, groups);
  return groups;
}

describe('COPY in binary format', () => {
  it('writes the values COPY text writes, for every column kind, with absent columns NULL', async () => {
    const binary = await write('copy_kinds');
    // The int8range column leaves the second table in COPY text.
    const text = await write('copy_kinds_text');
    expect(binary.every((g) => g.kinds !== undefined)).toBe(true);
    expect(text.every((g) => g.kinds === undefined)).toBe(true);
    expect(binary.length).toBeGreaterThan(1);
    const written = await contents('copy_kinds');
    expect(written).toEqual(await contents('copy_kinds_text'));
    expect(written).toHaveLength(ROWS.length);
    // A column no group names takes its default; one some group names is NULL where absent.
    expect(written.map((row) => (row as { defaulted: string }).defaulted)).toEqual(['7', '7', '7', '7', '7']);
    expect((written[4] as { flag: boolean | null }).flag).toBeNull();
  });

  it('refuses a value that is not of its column kind, or out of its range, as Postgres refuses its text', () => {
    const copies = new CopyTables(
      new Map([
        ['t.flag', 'bool'],
        ['t.small', 'int2'],
        ['t.number', 'int4'],
        ['t.id', 'int8'],
      ]),
    );
    expect(() => copies.add('t', { flag: 'yes' })).toThrow('not a boolean');
    expect(() => copies.add('t', { small: 32_768 })).toThrow('out of range');
    expect(() => copies.add('t', { number: 1.5 })).toThrow('out of range');
    expect(() => copies.add('t', { number: -2_147_483_649n })).toThrow('out of range');
    expect(() => copies.add('t', { id: 9_223_372_036_854_775_808n })).toThrow('out of range');
    expect(() => copies.add('t', { id: '1.5' })).toThrow(SyntaxError);
    copies.add('t', { small: -32_768, number: -2_147_483_648, id: -9_223_372_036_854_775_808n });
    expect(copies.tables.get('t')?.map((g) => g.rows)).toEqual([1]);
  });
});
