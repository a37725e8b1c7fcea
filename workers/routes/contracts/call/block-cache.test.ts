import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, type Database } from '../../../../db/client.ts';
import { proxyTarget, type SqlProxy, startSqlProxy } from '../../../../db/local/sql-proxy.ts';
import { insertRecordFile } from '../../../../test/harness/factories-blocks.ts';
import { createTestDatabase, type TestDatabase } from '../../../../test/harness/test-database.ts';
import { BlockCache } from './block-cache.ts';

let testDb: TestDatabase;
let proxy: SqlProxy;
let db: Database;

const recordFile = (index: bigint) =>
  insertRecordFile(testDb.sql, {
    index,
    consensus_start: index * 10n,
    consensus_end: index * 10n + 5n,
    hash: index.toString(16).padStart(96, '0'),
  });

beforeAll(async () => {
  testDb = await createTestDatabase();
  proxy = await startSqlProxy({ port: 0, targets: [proxyTarget(testDb.url, inject('pgSocketDir'))] });
  db = createDatabase({ url: testDb.url, localProxy: proxy.address });
  await recordFile(1n);
});

afterAll(async () => {
  await proxy?.close();
  await testDb?.drop();
});

describe('BlockCache', () => {
  it('reuses the latest block for half a second, then reads the newest again', async () => {
    const cache = new BlockCache();
    expect((await cache.resolve(db, { kind: 'latest' }, 0))?.number).toBe(1n);
    await recordFile(2n);
    expect((await cache.resolve(db, { kind: 'latest' }, 499))?.number).toBe(1n);
    const newest = await cache.resolve(db, { kind: 'latest' }, 500);
    expect(newest).toEqual({
      number: 2n,
      consensusStart: 20n,
      consensusEnd: 25n,
      hash: newest?.hash,
      historical: false,
    });
  });

  it('keeps a block found by number, but looks again for one that was missing', async () => {
    const cache = new BlockCache();
    expect(await cache.resolve(db, { kind: 'number', number: 7n }, 0)).toBeUndefined();
    await recordFile(7n);
    const found = await cache.resolve(db, { kind: 'number', number: 7n }, 0);
    expect(found).toMatchObject({ number: 7n, historical: true });
    await testDb.sql.query('delete from record_file where index = 7');
    expect(await cache.resolve(db, { kind: 'number', number: 7n }, 10_000)).toBe(found);
  });
});
