import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { int8range } from './column-types.ts';

const entityStakeColumns = () => ({
  endStakePeriod: bigint('end_stake_period', { mode: 'bigint' }).notNull(),
  id: bigint('id', { mode: 'bigint' }).notNull(),
  pendingReward: bigint('pending_reward', { mode: 'bigint' }).notNull(),
  stakedNodeIdStart: bigint('staked_node_id_start', { mode: 'bigint' }).notNull(),
  stakedToMe: bigint('staked_to_me', { mode: 'bigint' }).notNull(),
  stakeTotalStart: bigint('stake_total_start', { mode: 'bigint' }).notNull(),
  timestampRange: int8range('timestamp_range').notNull(),
});

export const entityStake = pgTable('entity_stake', entityStakeColumns(), (t) => [
  primaryKey({ name: 'entity_stake_pkey', columns: [t.id] }),
]);

export const entityStakeHistory = pgTable('entity_stake_history', entityStakeColumns());

export const networkStake = pgTable(
  'network_stake',
  {
    consensusTimestamp: bigint('consensus_timestamp', { mode: 'bigint' }).notNull(),
    epochDay: bigint('epoch_day', { mode: 'bigint' }).notNull(),
    maxStakingRewardRatePerHbar: bigint('max_staking_reward_rate_per_hbar', { mode: 'bigint' }).notNull(),
    nodeRewardFeeDenominator: bigint('node_reward_fee_denominator', { mode: 'bigint' }).notNull(),
    nodeRewardFeeNumerator: bigint('node_reward_fee_numerator', { mode: 'bigint' }).notNull(),
    stakeTotal: bigint('stake_total', { mode: 'bigint' }).notNull(),
    stakingPeriod: bigint('staking_period', { mode: 'bigint' }).notNull(),
    stakingPeriodDuration: bigint('staking_period_duration', { mode: 'bigint' }).notNull(),
    stakingPeriodsStored: bigint('staking_periods_stored', { mode: 'bigint' }).notNull(),
    stakingRewardFeeDenominator: bigint('staking_reward_fee_denominator', { mode: 'bigint' }).notNull(),
    stakingRewardFeeNumerator: bigint('staking_reward_fee_numerator', { mode: 'bigint' }).notNull(),
    stakingRewardRate: bigint('staking_reward_rate', { mode: 'bigint' }).notNull(),
    stakingStartThreshold: bigint('staking_start_threshold', { mode: 'bigint' }).notNull(),
    maxStakeRewarded: bigint('max_stake_rewarded', { mode: 'bigint' }).notNull().default(sql`0`),
    maxTotalReward: bigint('max_total_reward', { mode: 'bigint' }).notNull().default(sql`0`),
    reservedStakingRewards: bigint('reserved_staking_rewards', { mode: 'bigint' }).notNull().default(sql`0`),
    rewardBalanceThreshold: bigint('reward_balance_threshold', { mode: 'bigint' }).notNull().default(sql`0`),
    unreservedStakingRewardBalance: bigint('unreserved_staking_reward_balance', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
  },
  (t) => [primaryKey({ name: 'network_stake_pkey', columns: [t.consensusTimestamp] })],
);

export const nodeStake = pgTable(
  'node_stake',
  {
    consensusTimestamp: bigint('consensus_timestamp', { mode: 'bigint' }).notNull(),
    epochDay: bigint('epoch_day', { mode: 'bigint' }).notNull(),
    nodeId: bigint('node_id', { mode: 'bigint' }).notNull(),
    rewardRate: bigint('reward_rate', { mode: 'bigint' }).notNull(),
    stake: bigint('stake', { mode: 'bigint' }).notNull(),
    stakeRewarded: bigint('stake_rewarded', { mode: 'bigint' }).notNull(),
    stakingPeriod: bigint('staking_period', { mode: 'bigint' }).notNull(),
    maxStake: bigint('max_stake', { mode: 'bigint' }).notNull(),
    minStake: bigint('min_stake', { mode: 'bigint' }).notNull(),
    stakeNotRewarded: bigint('stake_not_rewarded', { mode: 'bigint' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'node_stake_pkey', columns: [t.consensusTimestamp, t.nodeId] }),
    index('node_stake__epoch_day').on(t.epochDay),
  ],
);

export const stakingRewardTransfer = pgTable(
  'staking_reward_transfer',
  {
    accountId: bigint('account_id', { mode: 'bigint' }).notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    consensusTimestamp: bigint('consensus_timestamp', { mode: 'bigint' }).notNull(),
    payerAccountId: bigint('payer_account_id', { mode: 'bigint' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'staking_reward_transfer_pkey', columns: [t.consensusTimestamp, t.accountId] }),
    index('staking_reward_transfer__account_timestamp').on(t.accountId, t.consensusTimestamp),
  ],
);
