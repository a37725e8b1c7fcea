import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainQueries, type PlanNode, planNodes } from '../../test/harness/explain.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import type { Database } from '../client.ts';
import { type ContractLogsQuery, contractLogs } from './contract-logs.ts';

/**
 * The logs queries on 1,000,000 logs: every page walks an index in (timestamp, index) order within its bounds and
 * stops at the limit; topic filters never turn it into a scan of the table. Plans are checked by shape.
 */

const LOGS = 1_000_000;
const START = 1_700_000_000_000_000_000n;
/** One log every 2 s: 1,000,000 logs span about 23 days. */
const STEP = 2_000_000_000n;
const CONTRACTS = 1_000;
const DAY = 86_400_000_000_000n;
const CLOSE_INTERVAL = 10_000_000_000n;

let db: TestDatabase;

async function planOf(query: ContractLogsQuery): Promise<PlanNode[]> {
  const [plan] = await explainQueries(db.sql, (d: Database) => contractLogs(d, query));
  if (!plan) throw new Error('no statement was run');
  return planNodes(plan);
}

/** The contract_log scans of a plan: none sequential; with `bounded`, each has a condition on its index. */
function logScans(plan: PlanNode[], bounded = true): PlanNode[] {
  const scans = plan.filter((n) => n['Relation Name'] === 'contract_log');
  expect(scans.length).toBeGreaterThan(0);
  for (const scan of scans) {
    expect(scan['Node Type']).toMatch(/^Index (Only )?Scan$/);
    if (bounded) expect(scan['Index Cond']).toBeTruthy();
  }
  return scans;
}

/** Every scan of contract_log sits under a Limit (directly or through an incremental sort): the walk stops early. */
function expectLimited(plan: PlanNode[]) {
  const limited = new Set(
    plan
      .filter((n) => n['Node Type'] === 'Limit')
      .flatMap((n) => planNodes(n))
      .filter((n) => n['Relation Name'] === 'contract_log'),
  );
  expect(limited.size).toBe(plan.filter((n) => n['Relation Name'] === 'contract_log').length);
}

const query = (overrides: Partial<ContractLogsQuery>): ContractLogsQuery => ({
  topics: [[], [], [], []],
  parts: [],
  order: 'desc',
  limit: 25,
  closeIntervalNs: CLOSE_INTERVAL,
  ...overrides,
});

const ts = (n: bigint) => START + n * STEP;

beforeAll(async () => {
  db = await createTestDatabase();
  // Contract 1000 + g % 1000 emits log g; topic0 takes one of 50 event signatures (1 and 2 bytes after leading
  // zeros are dropped), topic1 one of 997 values; one transaction (and so one log index) per timestamp.
  await db.sql.query(`
    insert into contract_log (bloom, consensus_timestamp, contract_id, data, index, topic0, topic1, topic2, topic3,
                              payer_account_id, root_contract_id, transaction_hash, transaction_index)
    select '\\x0123', ${START} + g * ${STEP}, 1000 + g % ${CONTRACTS}, '\\x0123', 0,
           int4send((g % 50)::int), int4send((g % 997)::int), null, null,
           2, 1000 + g % ${CONTRACTS}, sha256(int8send(g)), 0
      from generate_series(1::bigint, ${LOGS}) g`);
  // one record file (block) every 2 s, each holding one log
  await db.sql.query(`
    insert into record_file (name, load_start, load_end, hash, prev_hash, consensus_start, consensus_end, count,
                             digest_algorithm, version, file_hash, index, sidecar_count)
    select 'f' || g, 0, 0, md5(g::text), md5((g - 1)::text), ${START} + g * ${STEP} - 1000, ${START} + g * ${STEP} + 1000,
           1, 0, 6, md5(g::text), g, 0
      from generate_series(1::bigint, ${LOGS}) g`);
  await db.sql.query('analyze contract_log; analyze record_file');
}, 300_000);

afterAll(async () => {
  await db?.drop();
});

describe('contract logs plans on 1,000,000 logs', () => {
  it('walks the primary key backwards for the latest logs of all contracts', async () => {
    const plan = await planOf(query({}));
    const [scan] = logScans(plan, false).map((n) => n['Index Name']);
    expect(scan).toBe('contract_log_pkey');
    expectLimited(plan);
    expect(plan.find((n) => n['Relation Name'] === 'contract_log')?.['Actual Rows']).toBeLessThanOrEqual(25);
  });

  it('bounds a topic search by its timestamp range on the primary key', async () => {
    const upper = ts(BigInt(LOGS) - 1000n);
    const plan = await planOf(
      query({
        // one signature in 50: a 25-log page reads about 1,250 logs
        topics: [['00000007'], [], [], []],
        parts: [
          [
            { column: 'consensus_timestamp', operator: 'gte', value: upper - 7n * DAY },
            { column: 'consensus_timestamp', operator: 'lte', value: upper },
          ],
        ],
      }),
    );
    const scans = logScans(plan);
    expect(scans.map((n) => n['Index Name'])).toEqual(['contract_log_pkey']);
    expect(String(scans[0]?.['Index Cond'])).toContain('consensus_timestamp');
    expectLimited(plan);
    expect(scans[0]?.['Actual Rows']).toBe(25);
  });

  it('finds a rare topic without reading outside the range', async () => {
    // topic1 value 996 in 997, over one day: at most ~44 logs match, all ~43,200 logs of the day are read
    const lower = ts(100_000n);
    const plan = await planOf(
      query({
        topics: [[], ['000003e4'], [], []],
        parts: [
          [
            { column: 'consensus_timestamp', operator: 'gte', value: lower },
            { column: 'consensus_timestamp', operator: 'lte', value: lower + DAY },
          ],
        ],
      }),
    );
    // The primary key is walked in order, or the day's rows are collected from it in a bitmap first: which one
    // depends on the planner's estimate of the topic's rows, which varies with ANALYZE's sample. Both stay inside
    // the range.
    const logReads = plan.filter((n) => n['Relation Name'] === 'contract_log');
    expect(logReads.map((n) => n['Node Type'])).not.toContain('Seq Scan');
    const range = plan.find((n) => n['Index Name'] === 'contract_log_pkey');
    expect(range?.['Node Type']).toMatch(/^(Index|Bitmap Index) Scan$/);
    expect(range?.['Index Cond']).toBeTruthy();
    const read = (range?.['Actual Rows'] ?? 0) + Number(range?.['Rows Removed by Filter'] ?? 0);
    expect(read).toBeLessThanOrEqual(Number(DAY / STEP) + 1);
  });

  it("walks one contract's logs on its (contract, timestamp) index", async () => {
    const plan = await planOf(
      query({
        contractId: 1042n,
        topics: [['00000007', '0000002a'], [], [], []],
        parts: [[{ column: 'consensus_timestamp', operator: 'lte', value: ts(900_000n) }]],
      }),
    );
    expect(logScans(plan).map((n) => n['Index Name'])).toEqual(['contract_log__contract_id_timestamp_index']);
    expectLimited(plan);
  });

  it('reads each part of a timestamp and index range through the primary key', async () => {
    const lower = ts(500_000n);
    const upper = ts(510_000n);
    const plan = await planOf(
      query({
        order: 'asc',
        parts: [
          [
            { column: 'consensus_timestamp', operator: 'eq', value: lower },
            { column: 'index', operator: 'gt', value: 0 },
          ],
          [
            { column: 'consensus_timestamp', operator: 'gt', value: lower },
            { column: 'consensus_timestamp', operator: 'lt', value: upper },
          ],
          [
            { column: 'consensus_timestamp', operator: 'eq', value: upper },
            { column: 'index', operator: 'lte', value: 3 },
          ],
        ],
      }),
    );
    expect(new Set(logScans(plan).map((n) => n['Index Name']))).toEqual(new Set(['contract_log_pkey']));
    expectLimited(plan);
  });

  it("finds each log's block through the record file primary key", async () => {
    const plan = await planOf(query({}));
    // The block lookup and the newest block's timestamp (for final answers), both on the primary key.
    const blocks = plan.filter((n) => n['Relation Name'] === 'record_file');
    expect(blocks.map((n) => n['Index Name'])).toEqual(['record_file_pkey', 'record_file_pkey']);
  });
});
