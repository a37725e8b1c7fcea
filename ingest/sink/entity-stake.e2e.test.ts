import { describe, expect, it } from 'vitest';
import { insertCryptoTransfer, insertRow } from '../../test/harness/factories.ts';
import { insertNodeStake } from '../../test/harness/factories-network.ts';
import { insertEntity } from '../../test/harness/factories-tokens.ts';
import { registerWorkerSuite } from '../../test/harness/worker-suite.ts';
import { updateEntityStakes } from './entity-stake.ts';

const DAY = 86_400n * 1_000_000_000n;
const HBAR = 100_000_000n;
const CREATED = 2000n;
const SNAPSHOT = 9n * DAY;
const FIRST_END = 10n * DAY;
const SECOND_END = 11n * DAY;
/** More than a month after the last balance snapshot: the period it ends cannot be computed. */
const THIRD_END = 60n * DAY;
const STAKER = 1001;
const PROXY = 1002;
const DECLINER = 1003;
const RECENT = 1004;
const LEAVER = 1005;
const OLD = 1006;

let periods = 0;

const { db, worker } = registerWorkerSuite({
  seed: async (db) => {
    const sql = db.sql;
    const node = async (at: bigint, epochDay: number, rates: [number, number]) => {
      for (const [id, rate] of rates.entries()) {
        await insertNodeStake(sql, {
          consensus_timestamp: at,
          node_id: BigInt(id),
          epoch_day: epochDay,
          reward_rate: rate,
        });
      }
    };
    // Before the staking reward account exists: not a period it computes, but the forfeited rates of 365 days before.
    await node(1000n, 20001 - 365, [30, 10]);
    await node(FIRST_END, 20000, [100, 50]);
    await node(SECOND_END, 20001, [200, 70]);
    await node(THIRD_END, 20002, [300, 90]);
    await insertEntity(sql, 800, CREATED);
    await insertEntity(sql, 2, CREATED);
    const staked = (node: number, start: number) => ({ staked_node_id: node, stake_period_start: start });
    await insertEntity(sql, STAKER, CREATED, staked(0, 19999));
    await insertEntity(sql, PROXY, CREATED, { staked_account_id: STAKER });
    await insertEntity(sql, DECLINER, CREATED, { ...staked(1, 19990), decline_reward: true });
    await insertEntity(sql, RECENT, CREATED, staked(1, 20000));
    await insertEntity(sql, OLD, CREATED, staked(0, 19000));
    const left = 10n * DAY + DAY / 2n;
    await insertEntity(sql, LEAVER, CREATED, { ...staked(0, 19500), deleted: true, timestamp_range: `[${left},)` });
    await insertRow(sql, 'entity_history', {
      id: LEAVER,
      num: LEAVER,
      realm: 0,
      shard: 0,
      type: 'ACCOUNT',
      created_timestamp: CREATED,
      deleted: false,
      ...staked(0, 19500),
      timestamp_range: `[${CREATED},${left})`,
    });
    for (const [account, hbars] of [
      [2, 10n ** 9n],
      [800, 1000n],
      [STAKER, 500n],
      [PROXY, 100n],
      [DECLINER, 50n],
      [RECENT, 30n],
      [LEAVER, 20n],
      [OLD, 40n],
    ] as const) {
      await insertRow(sql, 'account_balance', {
        consensus_timestamp: SNAPSHOT,
        account_id: account,
        balance: hbars * HBAR,
      });
    }
    const transfer = (at: bigint, hbars: bigint) =>
      insertCryptoTransfer(sql, {
        consensus_timestamp: at,
        entity_id: BigInt(STAKER),
        amount: hbars * HBAR,
        payer_account_id: 2n,
      });
    await transfer(SNAPSHOT + 50n, 10n);
    await transfer(FIRST_END + 500n, 5n);
    await sql.query('begin');
    periods = await updateEntityStakes(sql);
    await sql.query('commit');
  },
});

const stakes = async (table: string) =>
  (
    await db.sql.query(
      `select id::int, end_stake_period::int as period, pending_reward::int as pending, staked_node_id_start::int as node,
              (staked_to_me / ${HBAR})::int as to_me, (stake_total_start / ${HBAR})::int as total, timestamp_range::text as range
         from ${table} order by id, timestamp_range`,
    )
  ).rows;

describe('entity_stake after NodeStakeUpdates', () => {
  it('computes every period up to the last one with a balance snapshot in the month before it', async () => {
    expect(periods).toBe(2);
  });

  it('holds the last period: rewards of the stake at its start, 0 after a change, less those older than 365 days', async () => {
    const range = `[${SECOND_END},)`;
    expect(await stakes('entity_stake')).toEqual([
      { id: 800, period: 20001, pending: 0, node: -1, to_me: 0, total: 0, range },
      // 610 hbars at the start of the period (500 + 10 transferred + the 100 staked to it) at node 0's rate 200
      { id: STAKER, period: 20001, pending: 200 * 610, node: 0, to_me: 100, total: 615, range },
      // changed its stake the day the period started: that day's rate only
      { id: RECENT, period: 20001, pending: 70 * 30, node: 1, to_me: 0, total: 30, range },
      // deleted during the last period: its row stays as the previous period left it
      { id: LEAVER, period: 20000, pending: 0, node: 0, to_me: 0, total: 20, range: `[${FIRST_END},)` },
      // staked for more than 365 days: the rate of 365 days before drops out
      { id: OLD, period: 20001, pending: (200 - 30) * 40, node: 0, to_me: 0, total: 40, range },
    ]);
  });

  it('keeps the rows it replaced in entity_stake_history, closed at the next period', async () => {
    const range = `[${FIRST_END},${SECOND_END})`;
    expect(await stakes('entity_stake_history')).toEqual([
      { id: 800, period: 20000, pending: 0, node: -1, to_me: 0, total: 0, range },
      { id: STAKER, period: 20000, pending: 0, node: 0, to_me: 100, total: 610, range },
      { id: RECENT, period: 20000, pending: 0, node: 1, to_me: 0, total: 30, range },
      { id: OLD, period: 20000, pending: 0, node: 0, to_me: 0, total: 40, range },
    ]);
  });

  it('answers the pending reward on /accounts/{id}', async () => {
    for (const [id, pending] of [
      [STAKER, 122_000],
      [OLD, 6800],
      [PROXY, 0],
    ] as const) {
      const response = await worker.get(`/api/v1/accounts/0.0.${id}`);
      expect([id, response.status, response.body.pending_reward]).toEqual([id, 200, pending]);
    }
  });
});
