import { describe, it } from 'vitest';
import { expectBoundedPlan, planOfStatement } from '../../test/harness/explain.ts';
import { usePlanDatabase } from '../../test/harness/plan-database.ts';
import { contractLogsInRange } from './contract-logs.ts';
import { topicMessagesInRange } from './topics-messages.ts';
import { accountTransactionsInRange } from './transactions-stream.ts';

/**
 * What the stream tail reads per round, on 200,000 transactions (with transfers, topic messages and logs) spread
 * over 200 s: a range of about two seconds (one record file) for 50 subscribed ids must be read through the
 * timestamp indexes, never a whole table, touching about the rows of the range.
 */

const TRANSACTIONS = 200_000;
const START = 1_700_000_000_000_000_000n;
/** 1,000 transactions a second. */
const STEP = 1_000_000n;
const AFTER = START + 100_000n * STEP;
const UP_TO = AFTER + 2_000n * STEP;
const IDS = Array.from({ length: 50 }, (_, i) => 1000n + BigInt(i) * 7n);
const BIG_TABLES = [
  'transaction',
  'crypto_transfer',
  'token_transfer',
  'entity_transaction',
  'topic_message',
  'contract_log',
];
/** The range holds 2,000 transactions, each with three crypto transfers. */
const MAX_ROWS = 6_500;

const db = usePlanDatabase(async (sql) => {
  await sql.query(`
    insert into transaction (consensus_timestamp, type, result, payer_account_id, valid_start_ns, node_account_id,
                             charged_tx_fee, max_fee, valid_duration_seconds, nonce, scheduled, index)
    select ${START} + g * ${STEP}, 14, 22, 1000 + g % 997, ${START} + g * ${STEP} - 1000, 3, 100, 1000, 120, 0, false, 1
      from generate_series(1::bigint, ${TRANSACTIONS}) g`);
  await sql.query(`
    insert into crypto_transfer (entity_id, consensus_timestamp, amount, payer_account_id, is_approval)
    select account, ${START} + g * ${STEP}, amount, 1000 + g % 997, false
      from generate_series(1::bigint, ${TRANSACTIONS}) g,
           lateral (values (1000 + g % 997, -100), (3, 90), (98, 10)) as t(account, amount)`);
  await sql.query(`
    insert into token_transfer (token_id, account_id, consensus_timestamp, amount, payer_account_id, is_approval)
    select 5000, 100000 + (g * 7919) % 30000, ${START} + g * ${STEP}, 5, 1000 + g % 997, false
      from generate_series(1::bigint, ${TRANSACTIONS}) g`);
  await sql.query(`
    insert into entity_transaction (entity_id, consensus_timestamp, payer_account_id, result, type)
    select 2000 + g % 5000, ${START} + g * ${STEP}, 1000 + g % 997, 22, 14
      from generate_series(1::bigint, ${TRANSACTIONS}) g`);
  await sql.query(`
    insert into topic_message (consensus_timestamp, message, payer_account_id, running_hash, running_hash_version,
                               sequence_number, topic_id)
    select ${START} + g * ${STEP}, '\\x01', 2, '\\x02', 3, g, 1000 + g % 997
      from generate_series(1::bigint, ${TRANSACTIONS}) g`);
  await sql.query(`
    insert into contract_log (bloom, consensus_timestamp, contract_id, data, index, topic0, payer_account_id,
                              root_contract_id, transaction_hash, transaction_index)
    select '\\x0123', ${START} + g * ${STEP}, 1000 + g % 997, '\\x0123', 0, int4send((g % 50)::int), 2,
           1000 + g % 997, sha256(int8send(g)), 0
      from generate_series(1::bigint, ${TRANSACTIONS}) g`);
  await sql.query('analyze');
}, 300_000);

describe('the stream tail reads one range for all subscriptions of a kind', () => {
  it("reads the subscribed accounts' transactions of the range by timestamp", async () => {
    const plan = await planOfStatement(db.sql, (d) =>
      accountTransactionsInRange(d, { accounts: IDS, after: AFTER, upTo: UP_TO, precedingTypes: [11, 15] }),
    );
    expectBoundedPlan(plan, BIG_TABLES, MAX_ROWS);
  });

  it("reads the subscribed topics' messages of the range", async () => {
    const plan = await planOfStatement(db.sql, (d) =>
      topicMessagesInRange(d, { topicIds: IDS, after: AFTER, upTo: UP_TO }),
    );
    expectBoundedPlan(plan, BIG_TABLES, MAX_ROWS);
  });

  it("reads the subscribed contracts' logs of the range", async () => {
    const plan = await planOfStatement(db.sql, (d) =>
      contractLogsInRange(d, { contractIds: IDS, after: AFTER, upTo: UP_TO, closeIntervalNs: 10_000_000_000n }),
    );
    expectBoundedPlan(plan, BIG_TABLES, MAX_ROWS);
  });
});
