import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainQueries, type PlanNode, planNodes } from '../../test/harness/explain.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import type { Database } from '../client.ts';
import { contractResultDetails } from './contract-result-details.ts';
import { type ContractResultsQuery, contractResults, contractResultsWithDetails } from './contract-results.ts';
import { contractState } from './contract-state.ts';

/**
 * The contract results and state queries on 300,000 results: pages walk an index in timestamp (or slot) order and
 * stop at the limit; the Ethereum transaction, block, logs and state changes of a result are found by key.
 */

const RESULTS = 300_000;
const START = 1_700_000_000_000_000_000n;
const STEP = 2_000_000_000n;
const CONTRACTS = 500;
const CLOSE_INTERVAL = 10_000_000_000n;
const BIG_TABLES = ['contract_result', 'ethereum_transaction', 'record_file', 'contract_log', 'contract_state_change'];

let db: TestDatabase;

async function planOf(run: (db: Database) => Promise<unknown>): Promise<PlanNode[]> {
  const [plan] = await explainQueries(db.sql, run);
  if (!plan) throw new Error('no statement was run');
  return planNodes(plan);
}

function expectNoSeqScans(plan: PlanNode[]) {
  const seq = plan.filter((n) => n['Node Type'] === 'Seq Scan' && BIG_TABLES.includes(n['Relation Name'] ?? ''));
  expect(seq.map((n) => n['Relation Name'])).toEqual([]);
}

const indexesOf = (plan: PlanNode[], relation: string) =>
  plan.filter((n) => n['Relation Name'] === relation).map((n) => n['Index Name']);

const query = (overrides: Partial<ContractResultsQuery>): ContractResultsQuery => ({
  senders: [],
  senderComparisons: [],
  timestamps: [],
  timestampComparisons: [],
  transactionIndexes: [],
  internal: false,
  order: 'desc',
  limit: 25,
  ...overrides,
});

beforeAll(async () => {
  db = await createTestDatabase();
  await db.sql.query(`
    insert into contract_result (function_parameters, gas_limit, consensus_timestamp, contract_id, payer_account_id,
                                 sender_id, transaction_hash, transaction_index, transaction_result, transaction_nonce,
                                 call_result, amount)
    select '\\x01', 100000, ${START} + g * ${STEP}, 1000 + g % ${CONTRACTS}, 2, 5000 + g % 997, sha256(int8send(g)),
           0, 22, case when g % 10 = 0 then 1 else 0 end, '\\x02', 0
      from generate_series(1::bigint, ${RESULTS}) g`);
  await db.sql.query(`
    insert into ethereum_transaction (consensus_timestamp, data, gas_limit, hash, max_gas_allowance, nonce,
                                      payer_account_id, signature_r, signature_s, type, value)
    select ${START} + g * ${STEP}, '\\x00', 100000, sha256(int8send(g)), 0, g, 2, '\\x01', '\\x02', 2, '\\x00'
      from generate_series(2::bigint, ${RESULTS}, 2) g`);
  await db.sql.query(`
    insert into contract_transaction (consensus_timestamp, entity_id, contract_ids, payer_account_id)
    select ${START} + g * ${STEP}, id, array[1000 + g % ${CONTRACTS}, 2]::bigint[], 2
      from generate_series(1::bigint, ${RESULTS}) g, lateral (values (1000 + g % ${CONTRACTS}), (2)) t(id)`);
  await db.sql.query(`
    insert into contract_transaction_hash (consensus_timestamp, hash, payer_account_id, entity_id, transaction_result)
    select ${START} + g * ${STEP}, sha256(int8send(g)), 2, 1000 + g % ${CONTRACTS}, 22
      from generate_series(1::bigint, ${RESULTS}) g`);
  await db.sql.query(`
    insert into contract_state_change (consensus_timestamp, contract_id, payer_account_id, slot, value_read,
                                       value_written, migration)
    select ${START} + g * ${STEP}, 1000 + g % ${CONTRACTS}, 2, int4send((g % 64)::int), '\\x01', '\\x02', false
      from generate_series(1::bigint, ${RESULTS}) g`);
  await db.sql.query(`
    insert into contract_state (contract_id, created_timestamp, modified_timestamp, slot, value)
    select 1000 + c, 1, 2, int4send(s)::bytea || '\\x000000000000000000000000000000000000000000000000000000'::bytea, '\\x01'
      from generate_series(0, ${CONTRACTS - 1}) c, generate_series(0, 199) s`);
  await db.sql.query(`
    insert into record_file (name, load_start, load_end, hash, prev_hash, consensus_start, consensus_end, count,
                             digest_algorithm, version, file_hash, index, sidecar_count)
    select 'f' || g, 0, 0, md5(g::text), md5((g - 1)::text), ${START} + g * ${STEP} - 1000,
           ${START} + g * ${STEP} + 1000, 1, 0, 6, md5(g::text), g, 0
      from generate_series(1::bigint, ${RESULTS}) g`);
  await db.sql.query(
    'analyze contract_result; analyze ethereum_transaction; analyze contract_transaction; ' +
      'analyze contract_transaction_hash; analyze contract_state_change; analyze contract_state; analyze record_file',
  );
}, 300_000);

afterAll(async () => {
  await db?.drop();
});

describe('contract results plans on 300,000 results', () => {
  it('pages all results backwards on the primary key, with their transactions and blocks by key', async () => {
    const plan = await planOf((d) => contractResultsWithDetails(d, query({}), CLOSE_INTERVAL));
    expectNoSeqScans(plan);
    expect(indexesOf(plan, 'contract_result')).toEqual(['contract_result_pkey']);
    expect(indexesOf(plan, 'ethereum_transaction')).toEqual(['ethereum_transaction_pkey']);
    // the blocks and the newest block's timestamp (for final answers)
    expect(new Set(indexesOf(plan, 'record_file'))).toEqual(new Set(['record_file_pkey']));
  });

  it("pages one contract's results on its (contract, timestamp) index", async () => {
    const plan = await planOf((d) =>
      contractResults(
        d,
        query({ contractId: 1042n, timestampComparisons: [{ operator: 'lt', value: START + 200_000n * STEP }] }),
      ),
    );
    expectNoSeqScans(plan);
    expect(indexesOf(plan, 'contract_result')).toEqual(['contract_result__id_timestamp']);
  });

  it("pages a sender's results on its (sender, timestamp) index", async () => {
    const plan = await planOf((d) => contractResultsWithDetails(d, query({ senders: [5042n] }), CLOSE_INTERVAL));
    expectNoSeqScans(plan);
    expect(indexesOf(plan, 'contract_result')).toEqual(['contract_result__sender_timestamp']);
  });

  it('restricts a block filter to the block range', async () => {
    const plan = await planOf((d) =>
      contractResultsWithDetails(d, query({ block: { number: 150_000n } }), CLOSE_INTERVAL),
    );
    expectNoSeqScans(plan);
    expect(indexesOf(plan, 'record_file')).toContain('record_file__index');
    // the block's bounds are an index range on the results, not a filter on a walk of them all
    const scan = plan.find((n) => n['Relation Name'] === 'contract_result');
    expect(String(scan?.['Index Cond'])).toContain('consensus_timestamp');
  });

  it('reads a single result by hash and all its parts by key', async () => {
    const hash = (await db.sql.query(`select encode(sha256(int8send(150000::bigint)), 'hex') as h`)).rows[0]
      .h as string;
    const plan = await planOf((d) => contractResultDetails(d, { kind: 'hash', hash }));
    expectNoSeqScans(plan);
    expect(indexesOf(plan, 'contract_transaction_hash')).toEqual(['contract_transaction_hash__hash']);
    expect(indexesOf(plan, 'contract_state_change')).toEqual(['contract_state_change_pkey']);
  });

  it('pages state as of a time on the (contract, slot, timestamp) index', async () => {
    const plan = await planOf((d) =>
      contractState(d, {
        contractId: 1042n,
        timestamps: [{ operator: 'lte', value: START + 200_000n * STEP }],
        slots: [],
        slotComparisons: [],
        order: 'asc',
        limit: 25,
      }),
    );
    expectNoSeqScans(plan);
    expect(indexesOf(plan, 'contract_state_change')).toEqual(['contract_state_change__id_slot_timestamp']);
  });
});
