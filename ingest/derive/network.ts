/** Network-level transactions: UtilPrng, Freeze, NodeStakeUpdate. */
import type { PbEntityId } from '../decode/types.ts';
import { fileId, type ItemContext, nanos, serviceBody } from './context.ts';
import { epochDay } from './staking.ts';

export function prng(ctx: ItemContext): void {
  const { item } = ctx;
  // A record without entropy (neither bytes nor a number) has no row, as in the importer.
  if (!item.successful || (item.record.prng_bytes === undefined && item.record.prng_number === undefined)) return;
  const body = serviceBody<{ range?: number }>(ctx) ?? {};
  ctx.rows.insert('prng', {
    consensus_timestamp: item.consensusTimestamp,
    range: body.range ?? 0,
    prng_bytes: item.record.prng_bytes ?? null,
    prng_number: item.record.prng_number ?? null,
    payer_account_id: item.payerAccountId,
  });
}

export function freeze(ctx: ItemContext): void {
  const { item } = ctx;
  if (!item.successful) return;
  const body = serviceBody<FreezeBody>(ctx);
  const window = body.start_time
    ? { start: nanos(body.start_time), end: null }
    : freezeWindow(item.consensusTimestamp, body);
  ctx.rows.insert('network_freeze', {
    consensus_timestamp: item.consensusTimestamp,
    end_time: window.end,
    file_hash: body.file_hash ?? new Uint8Array(),
    file_id: fileId(body.update_file) || null,
    payer_account_id: item.payerAccountId,
    start_time: window.start,
    type: body.freeze_type ?? 0,
  });
}

interface FreezeBody {
  startHour?: number;
  startMin?: number;
  endHour?: number;
  endMin?: number;
  update_file?: PbEntityId;
  file_hash?: Uint8Array;
  start_time?: unknown;
  freeze_type?: number;
}

const NANOS_PER_MINUTE = 60_000_000_000n;
const NANOS_PER_HOUR = 60n * NANOS_PER_MINUTE;

/**
 * A freeze before `start_time` existed: from the body's start hour and minute of the consensus day (UTC) to its end
 * hour and minute, the next day when the end hour is before the start hour (FreezeTransactionHandler).
 */
function freezeWindow(consensusTimestamp: bigint, body: FreezeBody): { start: bigint; end: bigint } {
  const day = (consensusTimestamp / (24n * NANOS_PER_HOUR)) * 24n * NANOS_PER_HOUR;
  const at = (hour = 0, minute = 0) => day + BigInt(hour) * NANOS_PER_HOUR + BigInt(minute) * NANOS_PER_MINUTE;
  const start = at(body.startHour, body.startMin);
  const end = at(body.endHour, body.endMin) + ((body.startHour ?? 0) > (body.endHour ?? 0) ? 24n * NANOS_PER_HOUR : 0n);
  return { start, end };
}

interface Fraction {
  numerator?: bigint;
  denominator?: bigint;
}

interface NodeStakeUpdateBody {
  end_of_staking_period?: unknown;
  node_stake: {
    max_stake?: bigint;
    min_stake?: bigint;
    node_id?: bigint;
    reward_rate?: bigint;
    stake?: bigint;
    stake_not_rewarded?: bigint;
    stake_rewarded?: bigint;
  }[];
  max_staking_reward_rate_per_hbar?: bigint;
  node_reward_fee_fraction?: Fraction;
  staking_periods_stored?: bigint;
  staking_period?: bigint;
  staking_reward_fee_fraction?: Fraction;
  staking_start_threshold?: bigint;
  staking_reward_rate?: bigint;
  reserved_staking_rewards?: bigint;
  unreserved_staking_reward_balance?: bigint;
  reward_balance_threshold?: bigint;
  max_stake_rewarded?: bigint;
  max_total_reward?: bigint;
}

/**
 * Staking period results: one `node_stake` per node and one `network_stake`, keyed by the epoch day before the
 * update's (the update arrives the day after the period it closes), each value the body's (0 when unset); the
 * stake total is the nodes' rewarded plus not rewarded stake.
 */
export function nodeStakeUpdate(ctx: ItemContext): void {
  const { item } = ctx;
  if (!item.successful) return;
  const body = serviceBody<NodeStakeUpdateBody>(ctx);
  const ts = item.consensusTimestamp;
  const periodEnd = nanos(body.end_of_staking_period);
  const day = epochDay(ts) - 1n;
  let stakeTotal = 0n;
  for (const node of body.node_stake) {
    stakeTotal += (node.stake_rewarded ?? 0n) + (node.stake_not_rewarded ?? 0n);
    ctx.rows.insert('node_stake', {
      consensus_timestamp: ts,
      epoch_day: day,
      max_stake: node.max_stake ?? 0n,
      min_stake: node.min_stake ?? 0n,
      node_id: node.node_id ?? 0n,
      reward_rate: node.reward_rate ?? 0n,
      stake: node.stake ?? 0n,
      stake_not_rewarded: node.stake_not_rewarded ?? 0n,
      stake_rewarded: node.stake_rewarded ?? 0n,
      staking_period: periodEnd,
    });
  }
  ctx.rows.insert('network_stake', {
    consensus_timestamp: ts,
    epoch_day: day,
    max_stake_rewarded: body.max_stake_rewarded ?? 0n,
    max_staking_reward_rate_per_hbar: body.max_staking_reward_rate_per_hbar ?? 0n,
    max_total_reward: body.max_total_reward ?? 0n,
    node_reward_fee_denominator: body.node_reward_fee_fraction?.denominator ?? 0n,
    node_reward_fee_numerator: body.node_reward_fee_fraction?.numerator ?? 0n,
    reserved_staking_rewards: body.reserved_staking_rewards ?? 0n,
    reward_balance_threshold: body.reward_balance_threshold ?? 0n,
    stake_total: stakeTotal,
    staking_period: periodEnd,
    staking_period_duration: body.staking_period ?? 0n,
    staking_periods_stored: body.staking_periods_stored ?? 0n,
    staking_reward_fee_denominator: body.staking_reward_fee_fraction?.denominator ?? 0n,
    staking_reward_fee_numerator: body.staking_reward_fee_fraction?.numerator ?? 0n,
    staking_reward_rate: body.staking_reward_rate ?? 0n,
    staking_start_threshold: body.staking_start_threshold ?? 0n,
    unreserved_staking_reward_balance: body.unreserved_staking_reward_balance ?? 0n,
  });
}
