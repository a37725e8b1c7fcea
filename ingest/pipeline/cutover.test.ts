import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { BlockFileSource } from '../sources/block-file-source.ts';
import { DirStore } from '../sources/dir-store.ts';
import { RecordStreamSource } from '../sources/record-stream-source.ts';
import { addressBook, RECORDSTREAMS, STREAMS } from '../testing/fixtures.ts';
import { runWithCutover } from './cutover.ts';

// The v6 record stream fixtures end with the record file of block 6; the block stream fixtures start at 7.
const cutover = (client: pg.ClientBase) =>
  runWithCutover({
    records: {
      source: new RecordStreamSource(new DirStore(path.join(RECORDSTREAMS, 'v6'))),
      client,
      bootstrapAddressBook: addressBook('test-v6-sidecar-4n.bin'),
      log: () => {},
    },
    blocks: { source: new BlockFileSource(new DirStore(path.join(STREAMS, 'data/blockstreams'))), log: () => {} },
    untilIdle: true,
  });

describe('cutover from record streams to block streams', () => {
  let db: TestDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    db = await createTestDatabase();
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
    await db.drop();
  });

  it('continues with the block after the last record file, with no block missing or written twice', async () => {
    const summary = await cutover(client);
    expect(summary.records.map((r) => r.files)).toEqual([2]);
    expect(summary.blocks?.blocks).toBe(2);
    const files = await db.sql.query('select index, version, count from record_file order by consensus_end');
    expect(files.rows).toEqual([
      { index: '5', version: 6, count: '1' },
      { index: '6', version: 6, count: '2' },
      { index: '7', version: 7, count: '1' },
      { index: '8', version: 7, count: '1' },
    ]);
    const transactions = await db.sql.query('select count(distinct consensus_timestamp)::int as n from transaction');
    expect(transactions.rows[0]?.n).toBe(5);
  });

  it('starts again where it stopped: a second run writes nothing', async () => {
    const summary = await cutover(client);
    expect(summary.records).toEqual([]);
    expect(summary.blocks?.blocks).toBe(0);
    const files = await db.sql.query('select count(*)::int as n from record_file');
    expect(files.rows[0]?.n).toBe(4);
  });
});
