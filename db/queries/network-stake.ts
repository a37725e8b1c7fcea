import { sql } from 'drizzle-orm';
import type { Database } from '../client.ts';

/** A `network_stake` row; int8 columns as strings. */
export interface NetworkStakeRow extends Record<string, unknown> {
  consensus_timestamp: string;
  max_stake_rewarded: string;
  max_staking_reward_rate_per_hbar: string;
  max_total_reward: string;
  node_reward_fee_denominator: string;
  node_reward_fee_numerator: string;
  reserved_staking_rewards: string;
  reward_balance_threshold: string;
  stake_total: string;
  staking_period: string;
  staking_period_duration: string;
  staking_periods_stored: string;
  staking_reward_fee_denominator: string;
  staking_reward_fee_numerator: string;
  staking_reward_rate: string;
  staking_start_threshold: string;
  unreserved_staking_reward_balance: string;
}

/** The network stake of the latest staking period, if any has been recorded. */
export async function latestNetworkStake(db: Database): Promise<NetworkStakeRow | undefined> {
  const [row] = await db.rows<NetworkStakeRow>(sql`
    select consensus_timestamp, max_stake_rewarded, max_staking_reward_rate_per_hbar, max_total_reward,
           node_reward_fee_denominator, node_reward_fee_numerator, reserved_staking_rewards,
           reward_balance_threshold, stake_total, staking_period, staking_period_duration, staking_periods_stored,
           staking_reward_fee_denominator, staking_reward_fee_numerator, staking_reward_rate,
           staking_start_threshold, unreserved_staking_reward_balance
      from network_stake
     order by consensus_timestamp desc
     limit 1`);
  return row;
}
