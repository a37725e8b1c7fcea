/**
 * The staking columns of an account or contract (HIP-406) as the importer's create and update handlers set them
 * (updateStakingInfo): nothing before services 0.27; a create stakes to a node or an account and starts the stake
 * period that day, leaving the other target unset; an update also clears the other target, and a new decline
 * choice starts a new period too.
 */
import type { PbEntityId } from '../decode/types.ts';
import { accountId } from './context.ts';

const NANOS_PER_DAY = 86_400_000_000_000n;
/** Records of services before 0.27 carry no staking fields the importer reads. */
const STAKING_MINOR = 27;

export function epochDay(timestamp: bigint): bigint {
  return timestamp / NANOS_PER_DAY;
}

export interface StakingFields {
  staked_account_id?: PbEntityId;
  staked_node_id?: bigint;
  decline_reward?: boolean | { value?: boolean };
}

/** The staking columns a CryptoCreate or ContractCreate writes beyond the defaults (node -1, period -1). */
export function createStaking(body: StakingFields, timestamp: bigint, hapiMinor: number): Record<string, unknown> {
  if (hapiMinor < STAKING_MINOR) return {};
  const out: Record<string, unknown> = { decline_reward: body.decline_reward === true };
  if (body.staked_account_id !== undefined) out.staked_account_id = accountId(body.staked_account_id);
  else if (body.staked_node_id !== undefined) out.staked_node_id = body.staked_node_id;
  else return out;
  out.stake_period_start = epochDay(timestamp);
  return out;
}

/** The staking columns a CryptoUpdate or ContractUpdate changes; empty when it does not touch staking. */
export function updateStaking(body: StakingFields, timestamp: bigint, hapiMinor: number): Record<string, unknown> {
  if (hapiMinor < STAKING_MINOR) return {};
  const out: Record<string, unknown> = {};
  const decline = body.decline_reward;
  if (decline !== undefined) out.decline_reward = typeof decline === 'boolean' ? decline : (decline.value ?? false);
  if (body.staked_account_id !== undefined) {
    out.staked_account_id = accountId(body.staked_account_id);
    out.staked_node_id = -1n;
  } else if (body.staked_node_id !== undefined) {
    out.staked_node_id = body.staked_node_id;
    out.staked_account_id = 0n;
  }
  if (Object.keys(out).length > 0) out.stake_period_start = epochDay(timestamp);
  return out;
}
