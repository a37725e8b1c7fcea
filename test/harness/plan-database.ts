import type pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, type TestDatabase } from './test-database.ts';

/** The database of a query-plan test file: its big tables are seeded once, before the file's tests. */
export interface PlanDatabase {
  /** A plain client on the database, to explain statements and check what the seed wrote. */
  readonly sql: pg.Client;
}

/**
 * Registers the file's `beforeAll` (a fresh database, then `seed`, given `seedTimeoutMs` since it writes up to
 * millions of rows) and `afterAll` (the database dropped).
 */
export function usePlanDatabase(seed: (sql: pg.Client) => Promise<void>, seedTimeoutMs: number): PlanDatabase {
  let db: TestDatabase | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
    await seed(db.sql);
  }, seedTimeoutMs);
  afterAll(async () => {
    await db?.drop();
  });
  return {
    get sql() {
      if (!db) throw new Error('the plan test database is open only while the tests run');
      return db.sql;
    },
  };
}

/** `count` record files numbered from 1, two nanoseconds apart, whose hashes are 48 bytes of hex as stored. */
export async function insertHashedRecordFiles(sql: pg.Client, count: number): Promise<void> {
  await sql.query(
    `insert into record_file (consensus_start, consensus_end, count, digest_algorithm, file_hash, hash, index, name,
                              prev_hash, load_start, load_end, version)
     select g * 2, g * 2 + 1, 1, 0, '', encode(sha384(g::text::bytea), 'hex'), g, g || '.rcd', '', 0, 0, 6
       from generate_series(1, $1::int) g`,
    [count],
  );
  await sql.query('analyze record_file');
}
