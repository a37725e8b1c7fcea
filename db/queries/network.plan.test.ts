import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainQueries, type PlanNode, planNodes } from '../../test/harness/explain.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { systemFilesAt } from './network-files.ts';
import { registeredNodes } from './network-nodes.ts';
import { historicalUnreleasedSupply } from './network-supply.ts';

const LONG_MAX = 2n ** 63n - 1n;
const SECOND = 1_000_000_000n;
const T0 = 1_700_000_000n * SECOND;

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  // 300,000 file writes: 1,000 files with 300 versions each (0.0.111 and 0.0.112 among them)
  await db.sql.query(
    `insert into file_data (consensus_timestamp, entity_id, file_data, transaction_type)
     select ${T0} + g, 100 + g % 1000, '\\x0a00'::bytea, case when g % 3 = 0 then 19 else 16 end
       from generate_series(0, 299999) g`,
  );
  await db.sql.query(
    `insert into registered_node (registered_node_id, timestamp_range, type, service_endpoints)
     select g, int8range(g, null), array[(g % 4 + 1)::smallint], '[]'::jsonb from generate_series(1, 100000) g`,
  );
  // 200 daily snapshots of 1,000 accounts
  await db.sql.query(
    `insert into account_balance (account_id, balance, consensus_timestamp)
     select a, 10, ${T0} + d::bigint * 86400 * ${SECOND}
       from generate_series(1, 1000) a, generate_series(0, 199) d`,
  );
  await db.sql.query('analyze file_data; analyze registered_node; analyze account_balance');
}, 300_000);

afterAll(async () => {
  await db?.drop();
});

async function planOf(run: Parameters<typeof explainQueries>[1]): Promise<PlanNode[]> {
  const [plan] = await explainQueries(db.sql, run);
  if (!plan) throw new Error('no plan');
  return planNodes(plan);
}

const scans = (nodes: PlanNode[], relation: RegExp) =>
  nodes.filter((node) => relation.test(String(node['Relation Name'] ?? '')));

describe('query plans of the network routes', () => {
  it('finds a system file version through the (entity_id, consensus_timestamp) index', async () => {
    const nodes = await planOf((database) => systemFilesAt(database, [111n, 112n], 0n, LONG_MAX));
    expect(scans(nodes, /^file_data$/).map((node) => node['Node Type'])).not.toContain('Seq Scan');
    const indexScans = nodes.filter((node) => node['Index Name'] === 'file_data__id_timestamp');
    expect(indexScans.length).toBeGreaterThan(0);
    // the latest version holds a handful of rows: no scan reads more than a few per file
    for (const scan of indexScans) expect(Number(scan['Actual Rows'])).toBeLessThan(10);
  });

  it('pages registered nodes along the primary key, stopping at the limit', async () => {
    for (const order of ['asc', 'desc'] as const) {
      const nodes = await planOf((database) =>
        registeredNodes(database, { lower: 500n, upper: LONG_MAX, type: undefined, order, limit: 25 }),
      );
      expect(nodes[0]?.['Node Type']).toBe('Limit');
      expect(nodes.map((node) => node['Node Type'])).not.toContain('Sort');
      expect(scans(nodes, /^registered_node$/)[0]?.['Index Name']).toBe('registered_node__pk');
    }
  });

  it('filters registered nodes by type without reading the whole table', async () => {
    const nodes = await planOf((database) =>
      registeredNodes(database, { lower: 0n, upper: LONG_MAX, type: 3, order: 'asc', limit: 25 }),
    );
    expect(scans(nodes, /^registered_node$/).map((node) => node['Node Type'])).not.toContain('Seq Scan');
  });

  it('reads balance snapshots by account and time range', async () => {
    const ranges = [
      [2n, 2n],
      [42n, 42n],
      [44n, 71n],
      [400n, 750n],
    ] as const;
    const upper = T0 + 100n * 86_400n * SECOND;
    const nodes = await planOf((database) =>
      historicalUnreleasedSupply(database, ranges, upper - 40n * 86_400n * SECOND, upper),
    );
    const balanceScans = scans(nodes, /^account_balance/);
    expect(balanceScans.length).toBeGreaterThan(0);
    expect(balanceScans.map((node) => node['Node Type'])).not.toContain('Seq Scan');
  });
});
