import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRow } from '../../test/harness/factories.ts';
import { insertEntity } from '../../test/harness/factories-tokens.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { ingestNativeBlocks } from '../testing/ingest-blocks.ts';
import { timestampOf } from '../testing/native-blocks.ts';

const DAY = 86_400_000_000_000n;
/** Day 20,000's update, closing the staking period of day 19,999. */
const UPDATE_AT = 20_000n * DAY + 720_000_000_000n;
const STAKER = 1001;
const HBAR = 100_000_000n;

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  const created = 19_990n * DAY;
  await insertEntity(db.sql, 800, created);
  await insertEntity(db.sql, 2, created);
  await insertEntity(db.sql, STAKER, created, { staked_node_id: 0, stake_period_start: 19_995 });
  for (const [account, balance] of [
    [2, 10n ** 17n],
    [STAKER, 250n * HBAR],
  ] as const) {
    await insertRow(db.sql, 'account_balance', { consensus_timestamp: UPDATE_AT - DAY, account_id: account, balance });
  }
  const stake = { node_id: 0, stake: 500, stake_rewarded: 400, stake_not_rewarded: 100, reward_rate: 40 };
  const run = await ingestNativeBlocks(db.url, [
    {
      timestamp: UPDATE_AT,
      transactions: [
        {
          timestamp: UPDATE_AT,
          body: {
            node_stake_update: { end_of_staking_period: timestampOf(UPDATE_AT - DAY / 2n), node_stake: [stake] },
          },
        },
      ],
    },
  ]);
  expect(run.blocks).toBe(1);
}, 120_000);

afterAll(async () => {
  await db?.drop();
});

describe('a block with a NodeStakeUpdate', () => {
  it('brings entity_stake to the staking period it ends, in the same transaction', async () => {
    const { rows } = await db.sql.query(
      `select id::int, end_stake_period::int as period, staked_node_id_start::int as node,
              (stake_total_start / ${HBAR})::int as total, lower(timestamp_range)::text as since
         from entity_stake order by id`,
    );
    expect(rows).toEqual([
      { id: 800, period: 19_999, node: -1, total: 0, since: UPDATE_AT.toString() },
      { id: STAKER, period: 19_999, node: 0, total: 250, since: UPDATE_AT.toString() },
    ]);
  });
});
