import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainGenericQueries, type PlanNode, planNodes } from '../../test/harness/explain.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { blockByHashOrNumber } from './blocks.ts';

let db: TestDatabase;

// 100,000 record files whose hashes are 48 bytes of hex, as stored
beforeAll(async () => {
  db = await createTestDatabase();
  await db.sql.query(
    `insert into record_file (consensus_start, consensus_end, count, digest_algorithm, file_hash, hash, index, name,
                              prev_hash, load_start, load_end, version)
     select g * 2, g * 2 + 1, 1, 0, '', encode(sha384(g::text::bytea), 'hex'), g, g || '.rcd', '', 0, 0, 6
       from generate_series(1, 100000) g`,
  );
  await db.sql.query('analyze record_file');
}, 120_000);

afterAll(async () => {
  await db?.drop();
});

async function genericPlanOf(hashPrefix: string): Promise<PlanNode[]> {
  const [plan] = await explainGenericQueries(db.sql, (database) => blockByHashOrNumber(database, { hashPrefix }));
  if (!plan) throw new Error('no plan');
  return planNodes(plan);
}

describe('query plan of a block by hash', () => {
  // A plan made once for every value (what a prepared statement settles on) still finds the block in the index,
  // which a `like` pattern given as a parameter cannot: it was planned again on each execution.
  it.each([
    ['the 48-byte hash', 96],
    ['the 32-byte prefix', 64],
  ])('finds %s through the hash index in the plan for all values', async (_name, length) => {
    const { rows } = await db.sql.query(`select hash from record_file where index = 4242`);
    const hash = String(rows[0].hash);
    const nodes = await genericPlanOf(hash.slice(0, length));
    // Besides the newest block's timestamp and number (index-only scans backward, for final answers).
    const scans = nodes.filter((node) => node['Relation Name'] === 'record_file' && node['Node Type'] === 'Index Scan');
    expect(scans.map((node) => [node['Node Type'], node['Index Name']])).toEqual([['Index Scan', 'record_file__hash']]);
    expect(scans[0]?.['Actual Rows']).toBe(1);
  });
});
