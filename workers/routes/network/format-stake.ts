import type { NetworkStakeRow } from '../../../db/queries/network-stake.ts';
import { javaFloatJson } from '../../format/java-float.ts';
import { stakingPeriodRange } from './format-nodes.ts';

const FRACTION_SCALE = 9;

/**
 * numerator / denominator rounded half-up to nine decimal places, as a float; 0 for a zero denominator. The
 * decimal rounding is done exactly (bigint) before the conversion to float, as the reference does.
 */
export function fraction(numerator: bigint, denominator: bigint): number {
  if (denominator === 0n) return 0;
  const scale = 10n ** BigInt(FRACTION_SCALE);
  const negative = numerator < 0n !== denominator < 0n;
  const [n, d] = [numerator < 0n ? -numerator : numerator, denominator < 0n ? -denominator : denominator];
  let scaled = (n * scale) / d;
  if (((n * scale) % d) * 2n >= d) scaled += 1n;
  const whole = scaled / scale;
  const rest = (scaled % scale).toString().padStart(FRACTION_SCALE, '0');
  return Number(`${negative ? '-' : ''}${whole}.${rest}`);
}

export function formatNetworkStake(row: NetworkStakeRow) {
  return {
    max_stake_rewarded: BigInt(row.max_stake_rewarded),
    max_staking_reward_rate_per_hbar: BigInt(row.max_staking_reward_rate_per_hbar),
    max_total_reward: BigInt(row.max_total_reward),
    node_reward_fee_fraction: javaFloatJson(
      fraction(BigInt(row.node_reward_fee_numerator), BigInt(row.node_reward_fee_denominator)),
    ),
    reserved_staking_rewards: BigInt(row.reserved_staking_rewards),
    reward_balance_threshold: BigInt(row.reward_balance_threshold),
    stake_total: BigInt(row.stake_total),
    staking_period: stakingPeriodRange(row.staking_period),
    staking_period_duration: BigInt(row.staking_period_duration),
    staking_periods_stored: BigInt(row.staking_periods_stored),
    staking_reward_fee_fraction: javaFloatJson(
      fraction(BigInt(row.staking_reward_fee_numerator), BigInt(row.staking_reward_fee_denominator)),
    ),
    staking_reward_rate: BigInt(row.staking_reward_rate),
    staking_start_threshold: BigInt(row.staking_start_threshold),
    unreserved_staking_reward_balance: BigInt(row.unreserved_staking_reward_balance),
  };
}
