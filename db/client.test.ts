import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/harness/test-database.ts';
import { createDatabase } from './client.ts';
import { proxyTarget, type SqlProxy, startSqlProxy } from './local/sql-proxy.ts';

let db: TestDatabase;
let proxy: SqlProxy;

beforeAll(async () => {
  db = await createTestDatabase();
  proxy = await startSqlProxy({ port: 0, targets: [proxyTarget(db.url, inject('pgSocketDir'))] });
});

afterAll(async () => {
  await proxy?.close();
  await db?.drop();
});

const APPLICATION_NAME = sql`select current_setting('application_name') as name`;

describe('the database client', () => {
  it('names its sessions edge-mirror', async () => {
    const client = createDatabase({ url: db.url, localProxy: proxy.address });
    expect(await client.rows(APPLICATION_NAME)).toEqual([{ name: 'edge-mirror' }]);
  });

  it('keeps an application name the connection string gives', async () => {
    const url = new URL(db.url);
    url.searchParams.set('application_name', 'explorer-backend');
    const client = createDatabase({ url: url.href, localProxy: proxy.address });
    expect(await client.rows(APPLICATION_NAME)).toEqual([{ name: 'explorer-backend' }]);
  });
});
