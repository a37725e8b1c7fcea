import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDir } from '../test/harness/shared-dir.ts';
import { createTestDatabase, type TestDatabase } from '../test/harness/test-database.ts';

const CASES_DIR = path.join(sharedDir(), 'conformance/cases');

const sqlFiles = readdirSync(CASES_DIR, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.sql'))
  .sort();

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.drop();
});

describe('the conformance kit data', () => {
  it('is found', () => {
    expect(sqlFiles.length).toBeGreaterThan(0);
  });

  // Each file is loaded in a transaction that is rolled back, so each one meets an empty, freshly migrated schema.
  it.for(sqlFiles)('%s loads into the migrated schema', async (file) => {
    const text = readFileSync(path.join(CASES_DIR, file), 'utf8');
    await db.sql.query('begin');
    try {
      if (text.trim()) await db.sql.query(text);
    } catch (error) {
      throw new Error(`${file}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      await db.sql.query('rollback');
    }
  });
});
