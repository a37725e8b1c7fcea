import { describe, expect, it } from 'vitest';
import type { RecordItem } from '../decode/record-item.ts';
import type { ItemContext } from './context.ts';
import { FileRows } from './file-rows.ts';
import { nodeStakeUpdate } from './network.ts';

const DAY = 86_400_000_000_000n;
/** Day 20,000's update, 12 minutes after midnight, closing the period that ended with day 19,999. */
const AT = 20_000n * DAY + 720_000_000_000n;
const PERIOD_END = 20_000n * DAY - 1n;

function update(body: Record<string, unknown>): ItemContext {
  const item = {
    consensusTimestamp: AT,
    type: 51,
    successful: true,
    status: 22,
    payerAccountId: 2n,
    bodyName: 'node_stake_update',
    body: { node_stake_update: body },
    record: {},
  } as unknown as RecordItem;
  const ctx = { item, rows: new FileRows(), transaction: {}, hapiMinor: 60 };
  nodeStakeUpdate(ctx);
  return ctx;
}

const stakeOf = (n: bigint) => ({
  node_id: n,
  stake: 100n,
  stake_rewarded: 70n + n,
  stake_not_rewarded: 50n,
  max_stake: 1000n,
  min_stake: 10n,
  reward_rate: 3n,
});

describe('a NodeStakeUpdate', () => {
  it("keys its rows by the day before the update's, totals rewarded and not rewarded stake, keeps the body's values", () => {
    const ctx = update({
      end_of_staking_period: { seconds: PERIOD_END / 1_000_000_000n, nanos: Number(PERIOD_END % 1_000_000_000n) },
      node_stake: [stakeOf(0n), stakeOf(1n)],
      max_staking_reward_rate_per_hbar: 17_808n,
      staking_reward_rate: 100_000_000n,
    });
    const network = ctx.rows.rows('network_stake')[0];
    expect(network).toMatchObject({
      epoch_day: 19_999n,
      stake_total: 70n + 50n + 71n + 50n,
      staking_period: PERIOD_END,
      staking_period_duration: 0n,
      staking_reward_rate: 100_000_000n,
      max_staking_reward_rate_per_hbar: 17_808n,
    });
    expect(ctx.rows.rows('node_stake').map((r) => [r.node_id, r.epoch_day, r.stake])).toEqual([
      [0n, 19_999n, 100n],
      [1n, 19_999n, 100n],
    ]);
  });

  it('takes the epoch day from its own time, not from the end of the period it names', () => {
    const ctx = update({ end_of_staking_period: { seconds: 5n }, node_stake: [], staking_period: 1440n });
    expect(ctx.rows.rows('network_stake')[0]).toMatchObject({ epoch_day: 19_999n, staking_period_duration: 1440n });
  });
});
