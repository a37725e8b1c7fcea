import { describe, it } from 'vitest';
import { expectBoundedPlan, explainGenericQueries, planNodes, planOfStatement } from '../../test/harness/explain.ts';
import { usePlanDatabase } from '../../test/harness/plan-database.ts';
import type { Database } from '../client.ts';
import { rosettaBalance } from './rosetta-balances.ts';
import { type BlockSelector, rosettaBlock, type TransactionSelection } from './rosetta-blocks.ts';

const FILES = 20_000;
const PER_FILE = 10;
const ACCOUNTS = 10_000;
const TREASURY = 2n;
const SECOND = 1_000_000_000;
/** The tables that grow with the ledger: a plan must reach them through an index, with a bounded row count. */
const BIG_TABLES = [
  'record_file',
  'transaction',
  'crypto_transfer',
  'staking_reward_transfer',
  'entity',
  'entity_history',
  'account_balance',
];

/**
 * A ledger of realistic shape: 20,000 record files of 10 transactions, each moving hbar between two of 10,000
 * accounts and paying fees to a node and 0.0.98 (800,000 transfers), a staking reward now and then, every account
 * in three balance snapshots, a tenth of the accounts with a key alias and a history row.
 */
const db = usePlanDatabase(async (sql) => {
  await sql.query(
    `insert into record_file (consensus_start, consensus_end, count, digest_algorithm, file_hash, hash, index, name,
                              prev_hash, load_start, load_end, version)
     select g::bigint * ${2 * SECOND}, g::bigint * ${2 * SECOND} + ${SECOND}, ${PER_FILE}, 0, '',
            encode(sha384(g::text::bytea), 'hex'), g, g || '.rcd', encode(sha384((g - 1)::text::bytea), 'hex'), 0, 0, 6
       from generate_series(0, ${FILES - 1}) g`,
  );
  await sql.query(
    `insert into transaction (consensus_timestamp, type, result, payer_account_id, valid_start_ns, transaction_hash,
                              itemized_transfer, entity_id)
     select f::bigint * ${2 * SECOND} + t, 14, 22, 1000 + (f * 7 + t) % ${ACCOUNTS}, f::bigint * ${2 * SECOND},
            sha384((f * ${PER_FILE} + t)::text::bytea),
            jsonb_build_array(jsonb_build_object('amount', -50, 'entity_id', 1000 + (f * 7 + t) % ${ACCOUNTS}),
                              jsonb_build_object('amount', 50, 'entity_id', 1000 + (f * 13 + t) % ${ACCOUNTS})),
            null
       from generate_series(0, ${FILES - 1}) f, generate_series(1, ${PER_FILE}) t`,
  );
  await sql.query(
    `insert into crypto_transfer (entity_id, consensus_timestamp, amount, payer_account_id, is_approval)
     select x.entity_id, t.consensus_timestamp, x.amount, t.payer_account_id, false
       from transaction t,
            lateral (values (t.payer_account_id, -60::bigint),
                            (1000 + ((t.consensus_timestamp / ${2 * SECOND}) * 13 + t.consensus_timestamp % ${2 * SECOND}) % ${ACCOUNTS}, 50),
                            (3, 2),
                            (98, 8)) as x(entity_id, amount)`,
  );
  await sql.query(
    `insert into staking_reward_transfer (account_id, amount, consensus_timestamp, payer_account_id)
     select payer_account_id, 7, consensus_timestamp, payer_account_id from transaction where consensus_timestamp % 97 = 0`,
  );
  await sql.query(
    `insert into entity (id, num, realm, shard, type, created_timestamp, deleted, timestamp_range, alias, key)
     select g, g, 0, 0, 'ACCOUNT', 1, false, int8range(1, null),
            case when g % 10 = 0 then decode('1220' || lpad(to_hex(g), 64, '0'), 'hex') end,
            decode('1220' || lpad(to_hex(g), 64, '0'), 'hex')
       from generate_series(1, ${ACCOUNTS + 1000}) g`,
  );
  await sql.query(
    `insert into entity_history (id, num, realm, shard, type, created_timestamp, deleted, timestamp_range, alias)
     select id, num, realm, shard, type, created_timestamp, deleted, int8range(0, 1), alias
       from entity where id % 10 = 0`,
  );
  await sql.query(
    `insert into account_balance (consensus_timestamp, account_id, balance)
     select s * ${Math.floor(FILES / 3)}::bigint * ${2 * SECOND} + 1, e.id, 1000000
       from entity e, generate_series(0, 2) s`,
  );
  for (const table of BIG_TABLES) await sql.query(`analyze ${table}`);
}, 600_000);

const blockOf = (selector: BlockSelector, selection: TransactionSelection) => (database: Database) =>
  rosettaBlock(database, selector, selection, TREASURY);

/** Both the plan made for these values and the one a prepared statement may settle on for all values. */
async function plansOf(run: (database: Database) => Promise<unknown>) {
  const [generic] = await explainGenericQueries(db.sql, run);
  if (!generic) throw new Error('no statement');
  return [await planOfStatement(db.sql, run), planNodes(generic)];
}

describe('query plans of the Rosetta API on 20,000 blocks and 800,000 transfers', () => {
  it.each([
    ['a block by index with its transactions', { kind: 'index', index: 12_345n }, 'all'],
    ['the latest block', { kind: 'latest' }, 'all'],
    ['a block by hash', { kind: 'hash', hash: 'c4ca4238a0b923820dcc509a6f75849b'.padEnd(96, '0') }, 'all'],
    ['a transaction of a block by hash', { kind: 'index', index: 777n }, { hash: new Uint8Array(48) }],
    ['a block without its transactions', { kind: 'index', index: 19_000n }, 'none'],
  ] as const)('reads %s through indexes only', async (_name, selector, selection) => {
    for (const plan of await plansOf(blockOf(selector, selection))) expectBoundedPlan(plan, BIG_TABLES, 1_000);
  });

  it.each([
    ['by id', { id: 4242n }],
    ['by alias', { alias: Uint8Array.from(Buffer.from(`1220${(4240).toString(16).padStart(64, '0')}`, 'hex')) }],
    ['of the fee collector, whose transfers the account index leaves out', { id: 98n }],
  ])('reads a balance at a block %s through indexes only', async (name, account) => {
    const run = (database: Database) => rosettaBalance(database, account, { kind: 'index', index: 18_000n }, TREASURY);
    for (const plan of await plansOf(run)) {
      // 0.0.98 is in every transaction: its transfers since the snapshot (a third of the ledger at most) are read
      // from the timestamp index, as the reference's are; any other account's from the account index.
      const sinceSnapshot = 4 * PER_FILE * Math.ceil(FILES / 3);
      expectBoundedPlan(plan, BIG_TABLES, name.startsWith('of the fee') ? sinceSnapshot : 1_000);
    }
  });
});
