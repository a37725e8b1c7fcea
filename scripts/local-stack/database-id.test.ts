import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseUrl, type TestDatabase } from '../../test/harness/test-database.ts';
import { databaseId } from './database-id.ts';

describe('databaseId', () => {
  let db: TestDatabase;
  let other: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
    other = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
    await other.drop();
  });

  it('is the same for one database every time, and differs for another database on the same server', async () => {
    const id = await databaseId(db.url);
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(await databaseId(db.url)).toBe(id);
    expect(await databaseId(other.url)).not.toBe(id);
  });

  it('differs for a database re-created under the same name', async () => {
    const name = `database_id_${process.pid}`;
    const admin = new pg.Client({ connectionString: databaseUrl(db.url, 'postgres') });
    await admin.connect();
    try {
      await admin.query(`create database ${name}`);
      const before = await databaseId(databaseUrl(db.url, name));
      await admin.query(`drop database ${name}`);
      await admin.query(`create database ${name}`);
      expect(await databaseId(databaseUrl(db.url, name))).not.toBe(before);
    } finally {
      await admin.query(`drop database if exists ${name}`);
      await admin.end();
    }
  });
});
