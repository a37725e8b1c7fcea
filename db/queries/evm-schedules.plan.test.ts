import { describe, expect, it } from 'vitest';
import { GENESIS, SECOND } from '../../test/harness/evm-session.ts';
import { type PlanNode, planOfStatement } from '../../test/harness/explain.ts';
import { usePlanDatabase } from '../../test/harness/plan-database.ts';
import { scheduleSignatures, schedulesExpiringAt } from './evm-schedules.ts';

const ROWS = 1_000_000;
const FIRST_SCHEDULE = 100_000n;
/** A block in the middle of the schedules' creations: a call at it reads history. */
const AT = GENESIS + BigInt(ROWS / 2) * SECOND;

const db = usePlanDatabase(async (sql) => {
  // A million schedules, one created a second, each expiring a day after its creation; two signatures each.
  await sql.query(
    `insert into schedule (consensus_timestamp, creator_account_id, payer_account_id, schedule_id, transaction_body,
                           expiration_time, wait_for_expiry)
     select $1::bigint + n * 1000000000, 2, 2, $2::bigint + n, '\\x0a00', $1::bigint + (n + 86400) * 1000000000,
            n % 2 = 0
       from generate_series(1, $3::bigint) n`,
    [GENESIS, FIRST_SCHEDULE, ROWS],
  );
  await sql.query(
    `insert into transaction_signature (consensus_timestamp, public_key_prefix, entity_id, signature, type)
     select $1::bigint + n * 500000000, '\\x01', $2::bigint + n / 2, '\\x02', 3
       from generate_series(2, $3::bigint * 2) n`,
    [GENESIS, FIRST_SCHEDULE, ROWS],
  );
  await sql.query('analyze schedule, transaction_signature');
}, 600_000);

const planOf = (run: Parameters<typeof planOfStatement>[1]) => planOfStatement(db.sql, run);
const scanned = (nodes: PlanNode[]) =>
  nodes.reduce((sum, node) => sum + (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1), 0);

describe('schedule reads of a contract call over million-row tables', () => {
  it('finds the schedules with an expiry on its index', async () => {
    const expiry = GENESIS + (1000n + 86400n) * SECOND;
    const nodes = await planOf((database) => schedulesExpiringAt(database, expiry, true, AT));
    expect(nodes.map((node) => node['Node Type'])).not.toContain('Seq Scan');
    expect(scanned(nodes)).toBeLessThanOrEqual(10);
  });

  it('reads a schedule’s signatures by its entity', async () => {
    const nodes = await planOf((database) => scheduleSignatures(database, FIRST_SCHEDULE + 1000n, AT));
    expect(nodes.map((node) => node['Node Type'])).not.toContain('Seq Scan');
    expect(scanned(nodes)).toBeLessThanOrEqual(10);
  });
});
