import { describe, expect, it } from 'vitest';
import { expectBoundedPlan, planOfStatement } from '../../test/harness/explain.ts';
import { usePlanDatabase } from '../../test/harness/plan-database.ts';
import { databaseOnNodePg } from '../node-database.ts';
import { highestEntityId } from './evm-entity-numbers.ts';

/**
 * The first entity number of a create at a historical block is found with a bounded number of primary-key probes,
 * however many entities came after the block: a million entities, one created every 10 ms.
 */
const ROWS = 1_000_000;
const START = 1_700_000_000_000_000_000n;
const STEP = 10_000_000n;
const RANGE = { lowest: 0n, highest: 2n ** 38n - 1n };

const db = usePlanDatabase(async (sql) => {
  await sql.query(`
    insert into entity (id, num, realm, shard, type, memo, timestamp_range, created_timestamp)
    select g, g, 0, 0, 'ACCOUNT', '', int8range(${START} + g * ${STEP}, null), ${START} + g * ${STEP}
      from generate_series(1001::bigint, ${1000 + ROWS}) g`);
  await sql.query('analyze');
}, 600_000);

describe('highestEntityId over a million entities', () => {
  it('finds the highest entity created by a time long ago in at most 64 probes', async () => {
    const early = START + 2000n * STEP + 5n;
    expect(await highestEntityId(databaseOnNodePg(db.sql), RANGE, early)).toBe(2000n);
    const plan = await planOfStatement(db.sql, (d) => highestEntityId(d, RANGE, early));
    expectBoundedPlan(plan, ['entity'], 64);
  });

  it('finds the highest entity now from the end of the primary key', async () => {
    expect(await highestEntityId(databaseOnNodePg(db.sql), RANGE, undefined)).toBe(BigInt(1000 + ROWS));
    expectBoundedPlan(await planOfStatement(db.sql, (d) => highestEntityId(d, RANGE, undefined)), ['entity'], 1);
  });
});
