import { expect, it } from 'vitest';
import { expectBoundedPlan, planOfStatement } from '../../test/harness/explain.ts';
import { usePlanDatabase } from '../../test/harness/plan-database.ts';
import { delegationUpdates } from './evm-opcodes.ts';

/**
 * A type 4 transaction's delegation updates are found among a million later transactions, a tenth of them
 * CryptoUpdates of their own, without reading them: `parent_consensus_timestamp` has no index, so the scan of
 * (type, consensus_timestamp) must stop at the end of the parent's record file.
 */

const ROWS = 1_000_000;
/** A record file every 1,000 transactions (one transaction per nanosecond). */
const FILE_SPAN = 1_000;
/** In the middle of the second record file. */
const PARENT = 1_500n;

const db = usePlanDatabase(async (sql) => {
  await sql.query(`
    insert into transaction (consensus_timestamp, type, result, payer_account_id, valid_start_ns, entity_id,
                             parent_consensus_timestamp)
    select g, case when g between ${PARENT} + 1 and ${PARENT} + 3 or g % 10 = 0 then 15 else 7 end, 22, 2, g - 1, 3000 + g,
           case when g between ${PARENT} + 1 and ${PARENT} + 3 then ${PARENT} end
      from generate_series(1::bigint, ${ROWS}) g`);
  await sql.query(`
    insert into record_file (consensus_start, consensus_end, count, digest_algorithm, file_hash, hash, index, name,
                             prev_hash, load_start, load_end, version)
    select (g - 1) * ${FILE_SPAN} + 1, g * ${FILE_SPAN}, ${FILE_SPAN}, 0, '', md5(g::text), g, g || '.rcd', '', 0, 0, 6
      from generate_series(1, ${ROWS / FILE_SPAN}) g`);
  await sql.query('analyze');
}, 600_000);

it('reads the children of a transaction up to the end of its record file', async () => {
  const plan = await planOfStatement(db.sql, (d) => delegationUpdates(d, PARENT));
  expectBoundedPlan(plan, ['transaction', 'record_file'], 2 * FILE_SPAN);
  // Rows read and dropped count too: the scan of `transaction` stops at the end of the parent's file.
  const removed = plan.map((n) => Number(n['Rows Removed by Filter'] ?? 0) * (n['Actual Loops'] ?? 1));
  expect(Math.max(...removed)).toBeLessThanOrEqual(2 * FILE_SPAN);
  // The three children, and nothing else, come out.
  expect(plan[0]?.['Actual Rows']).toBe(3);
});
