import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOptions } from '../../simulator/main.ts';
import { simulate } from '../../simulator/run.ts';
import { ADDRESS_BOOK_FILE } from '../../simulator/write/layout.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { DirStore } from '../sources/dir-store.ts';
import { ingestStore } from '../testing/fixtures.ts';

const FILES = 40;
let out: string;
let db: TestDatabase;
let simulated: number;

beforeAll(async () => {
  out = mkdtempSync(path.join(tmpdir(), 'ingest-sparse-'));
  // Fewer transactions than files: many files are empty, and one step of the mix often crosses several periods.
  const args = ['--out', out, '--files', String(FILES), '--tps', '0.3', '--seed', 'sparse', '--quiet'];
  simulated = (await simulate(parseOptions(args))).transactions;
  db = await createTestDatabase();
}, 120_000);
afterAll(async () => {
  await db.drop();
  rmSync(out, { recursive: true, force: true });
});

describe('record files of a slow network, many of them empty', () => {
  it('are all verified and written in order, each empty one after the last transaction before it', async () => {
    const book = new Uint8Array(readFileSync(path.join(out, ADDRESS_BOOK_FILE)));
    const run = await ingestStore(db.url, new DirStore(out), '', { bootstrapAddressBook: book });
    // the genesis file, then the files of traffic
    expect([run.files, run.transactions]).toEqual([FILES + 1, simulated]);
    const { rows } = await db.sql.query<{ start: string; end: string; count: string }>(
      'select consensus_start::text as start, consensus_end::text as end, count::text from record_file order by index',
    );
    expect(rows.filter((r) => r.count === '0').length).toBeGreaterThan(5);
    for (const [i, row] of rows.entries()) {
      const previous = rows[i - 1];
      if (previous) expect(BigInt(row.start), `file ${i}`).toBeGreaterThan(BigInt(previous.end));
    }
  });
});
