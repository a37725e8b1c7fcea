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
  // six files: the genesis file and five of traffic
  await simulate(parseOptions(['--out', out, '--files', '5', '--tps', '200', '--seed', 'two-connections']));
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

/** A connected client whose transaction begins and commits are appended to `events` as `<name> begin|commit`. */
async function recordingClient(url: string, name: string, events: string[]): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    if (args[0] === 'begin' || args[0] === 'commit') events.push(`${name} ${args[0]}`);
    return query(...args);
  };
  return client;
}

describe('record files written over two connections', () => {
  it('write the same rows as over one, committed one by one in order, each begun before the previous commit', async () => {
    const events: string[] = [];
    const client = await recordingClient(two.url, 'a', events);
    const secondClient = await recordingClient(two.url, 'b', events);
    let run: Awaited<ReturnType<typeof ingestStore>>;
    try {
      run = await ingestStore(two.url, new DirStore(out), '', { bootstrapAddressBook: book, client, secondClient });
    } finally {
      await client.end();
      await secondClient.end();
    }
    expect(run.files).toBe(6);
    await sameAsOneConnection(two);
    const ingested = run.logs.filter((l) => l.msg === 'record file ingested').map((l) => l.index);
    expect(ingested).toEqual(['0', '1', '2', '3', '4', '5']);
    // The genesis balance file goes first, in a transaction of its own on the first connection (balance-files.ts).
    expect(events.splice(0, 2)).toEqual(['a begin', 'a commit']);
    // Record files alternate between the connections, each committing in turn, and a file may begin (its COPYs)
    // before the file before it, on the other connection, commits: on one connection none ever could. Which files
    // overlap depends on how long each takes to prepare and to write, so the test asks for one at least.
    expect(events.filter((e) => e.endsWith('commit'))).toEqual(
      ['a', 'b', 'a', 'b', 'a', 'b'].map((c) => `${c} commit`),
    );
    expect(events.filter((e) => e.endsWith('begin'))).toEqual(['a', 'b', 'a', 'b', 'a', 'b'].map((c) => `${c} begin`));
    const begins = events.flatMap((e, at) => (e.endsWith('begin') ? [at] : []));
    const commits = events.flatMap((e, at) => (e.endsWith('commit') ? [at] : []));
    const overlapping = [1, 2, 3, 4, 5].filter((file) => (begins[file] as number) < (commits[file - 1] as number));
    expect(overlapping.length).toBeGreaterThan(0);
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
