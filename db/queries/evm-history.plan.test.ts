import { describe, expect, it } from 'vitest';
import { expectBoundedPlan, type PlanNode, planOfStatement } from '../../test/harness/explain.ts';
import { usePlanDatabase } from '../../test/harness/plan-database.ts';
import type { Database } from '../client.ts';
import { historicalBalance } from './evm-balances.ts';
import { currentEvmEntity, evmEntityIdByAddress, historicalEvmEntity } from './evm-entities.ts';
import { blockHashPrefix, currentSlot, historicalSlot } from './evm-state.ts';

/**
 * The statements a contract call issues at a historical block each read a bounded number of rows, however long
 * the history: a contract whose ten slots changed a million times, an account with a million transfers, an entity
 * with a million versions.
 */

const ROWS = 1_000_000;
const START = 1_700_000_000_000_000_000n;
/** One change every 10 ms: the million rows span 10,000 seconds. */
const STEP = 10_000_000n;
/** A balance snapshot every 100 seconds: 10,000 transfers apart. */
const SNAPSHOT_STEP = 100_000_000_000n;
const CONTRACT = 5000n;
const ACCOUNT = 7000n;
const ENTITY = 8000n;
const EVM_ADDRESS = Buffer.from('42'.repeat(20), 'hex');
const BIG_TABLES = ['contract_state_change', 'crypto_transfer', 'entity_history', 'account_balance', 'record_file'];

const db = usePlanDatabase(async (sql) => {
  await sql.query(`
    insert into contract_state_change (consensus_timestamp, contract_id, payer_account_id, slot, value_read, value_written)
    select ${START} + g * ${STEP}, ${CONTRACT}, 2, decode(lpad(to_hex(g % 10), 2, '0'), 'hex'), '\\x01', int8send(g)
      from generate_series(1::bigint, ${ROWS}) g`);
  await sql.query(`
    insert into crypto_transfer (entity_id, consensus_timestamp, amount, payer_account_id, is_approval)
    select ${ACCOUNT}, ${START} + g * ${STEP}, 1, ${ACCOUNT}, false from generate_series(1::bigint, ${ROWS}) g`);
  await sql.query(`
    insert into account_balance (consensus_timestamp, account_id, balance)
    select ${START} + g * ${SNAPSHOT_STEP}, account, g
      from generate_series(0::bigint, 100) g, (values (2), (${ACCOUNT})) as a(account)`);
  await sql.query(
    `
    insert into entity_history (id, num, realm, shard, type, memo, timestamp_range, created_timestamp, evm_address)
    select ${ENTITY}, ${ENTITY}, 0, 0, 'CONTRACT', g::text,
           int8range(${START} + g * ${STEP}, ${START} + (g + 1) * ${STEP}), ${START}, $1
      from generate_series(1::bigint, ${ROWS}) g`,
    [EVM_ADDRESS],
  );
  await sql.query(
    `
    insert into entity (id, num, realm, shard, type, memo, timestamp_range, created_timestamp, evm_address)
    values (${ENTITY}, ${ENTITY}, 0, 0, 'CONTRACT', '', int8range(${START + BigInt(ROWS + 1) * STEP}, null), ${START}, $1)`,
    [EVM_ADDRESS],
  );
  await sql.query(`
    insert into record_file (name, index, consensus_start, consensus_end, hash, prev_hash, count, digest_algorithm,
                             hapi_version_major, hapi_version_minor, hapi_version_patch, version, file_hash,
                             gas_used, logs_bloom, size, load_start, load_end)
    select g || '.rcd', g, ${START} + g * 2000000000, ${START} + g * 2000000000 + 1, md5(g::text) || md5(g::text) || md5(g::text),
           '', 1, 0, 0, 54, 0, 6, '', 0, '', 1, 0, 0
      from generate_series(1::bigint, ${ROWS}) g`);
  await sql.query('analyze');
}, 600_000);

/** The plan of the statement `run` issues. */
const planOf = (run: (db: Database) => Promise<unknown>) => planOfStatement(db.sql, run);

/** No big table is read whole, and no node produces more than `maxRows` rows over all its loops. */
const expectBounded = (plan: PlanNode[], maxRows: number) => expectBoundedPlan(plan, BIG_TABLES, maxRows);

const middle = START + BigInt(ROWS / 2) * STEP + 5n;

describe('historical EVM reads over a million rows', () => {
  it('reads a slot at a time from its newest change before it, by (contract_id, slot, consensus_timestamp)', async () => {
    expectBounded(await planOf((d) => historicalSlot(d, CONTRACT, new Uint8Array([3]), middle)), 2);
  });

  it('reads a current slot and a block hash by key', async () => {
    expectBounded(await planOf((d) => currentSlot(d, CONTRACT, new Uint8Array(32))), 2);
    expectBounded(await planOf((d) => blockHashPrefix(d, 500_000n)), 2);
  });

  it('reads an entity version at a time from the newest history row before it', async () => {
    expectBounded(await planOf((d) => historicalEvmEntity(d, ENTITY, middle)), 2);
    expectBounded(await planOf((d) => currentEvmEntity(d, ENTITY)), 2);
  });

  it('finds an entity by EVM address without reading its history', async () => {
    expectBounded(await planOf((d) => evmEntityIdByAddress(d, EVM_ADDRESS, middle)), 2);
  });

  it('sums only the transfers between the latest snapshot and the time', async () => {
    const { rows } = await db.sql.query(`select count(*)::int as n from crypto_transfer where entity_id = ${ACCOUNT}`);
    expect(rows[0].n).toBe(ROWS);
    // 10,000 transfers lie between two snapshots.
    expectBounded(await planOf((d) => historicalBalance(d, ACCOUNT, middle)), 10_000);
  });
});
