import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOptions } from '../../simulator/main.ts';
import { simulate } from '../../simulator/run.ts';
import { ADDRESS_BOOK_FILE } from '../../simulator/write/layout.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { DirStore } from '../sources/dir-store.ts';
import { rowCounts, tableContents } from '../testing/database-facts.ts';
import { ingestStore } from '../testing/fixtures.ts';

let out: string;
let book: Uint8Array;
let one: TestDatabase;
let two: TestDatabase;

beforeAll(async () => {
  out = mkdtempSync(path.join(tmpdir(), 'ingest-two-'));
  await simulate(parseOptions(['--out', out, '--files', '6', '--tps', '200', '--seed', 'two-connections']));
  book = new Uint8Array(readFileSync(path.join(out, ADDRESS_BOOK_FILE)));
  [one, two] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  const client = new pg.Client({ connectionString: one.url });
  await client.connect();
  try {
    await ingestStore(one.url, new DirStore(out), '', { bootstrapAddressBook: book, client });
  } finally {
    await client.end();
  }
}, 120_000);
afterAll(async () => {
  await Promise.all([one?.drop(), two?.drop()]);
  rmSync(out, { recursive: true, force: true });
});

async function sameAsOneConnection(db: TestDatabase): Promise<void> {
  const counts = await rowCounts(one.sql);
  expect(counts).toHaveProperty('transaction');
  expect(await rowCounts(db.sql)).toEqual(counts);
  const tables = Object.keys(counts);
  expect(await tableContents(db.sql, tables)).toEqual(await tableContents(one.sql, tables));
}

describe('record files written over two connections', () => {
  it('write the same rows as over one, committed one by one in order', async () => {
    const run = await ingestStore(two.url, new DirStore(out), '', { bootstrapAddressBook: book });
    expect(run.files).toBe(6);
    await sameAsOneConnection(two);
    const ingested = run.logs.filter((l) => l.msg === 'record file ingested').map((l) => l.index);
    expect(ingested).toEqual(['0', '1', '2', '3', '4', '5']);
  });

  it('leave each file to whichever of two concurrent runs writes it first, none written twice', async () => {
    const db = await createTestDatabase();
    try {
      const runs = await Promise.all([
        ingestStore(db.url, new DirStore(out), '', { bootstrapAddressBook: book }),
        ingestStore(db.url, new DirStore(out), '', { bootstrapAddressBook: book }),
      ]);
      expect(runs.map((r) => r.files).reduce((a, b) => a + b)).toBe(6);
      await sameAsOneConnection(db);
    } finally {
      await db.drop();
    }
  });
});
