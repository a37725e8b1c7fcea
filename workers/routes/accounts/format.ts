import type { AccountRow, TokenBalanceJson } from '../../../db/queries/accounts.ts';
import { base32Encode } from '../../format/base32.ts';
import { keyObject } from '../../format/key.ts';
import { entityId, hex, int64, timestampString } from '../../format/values.ts';
import { decodeEntityId, longZeroEvmAddress } from '../../params/entity-id.ts';

const ONE_DAY_NS = 86_400_000_000_000n;
const NANOS_PER_SECOND = 1_000_000_000n;
const EVM_ADDRESS_BYTES = 20;
const ZERO_EVM_ADDRESS = `0x${'0'.repeat(40)}`;

/** `[{token_id, balance}]` from an aggregated json column (null when the account has none). */
export function formatTokenBalances(balances: readonly TokenBalanceJson[] | null | undefined) {
  return (balances ?? []).map(([tokenId, balance]) => ({ token_id: entityId(tokenId), balance }));
}

/** An expiry stored as such, else the creation plus the auto-renew period (seconds). */
function expiryTimestamp(row: AccountRow): string | null {
  if (row.expiration_timestamp === null && row.created_timestamp !== null && row.auto_renew_period !== null) {
    return timestampString(BigInt(row.created_timestamp) + BigInt(row.auto_renew_period) * NANOS_PER_SECOND);
  }
  return timestampString(row.expiration_timestamp);
}

/** The stored EVM address, else a 20-byte alias, else the long-zero address of the id (none for num 0). */
function evmAddress(row: AccountRow): string | null {
  if (row.evm_address !== null) return `0x${hex(row.evm_address)}`;
  if (row.alias !== null && row.alias.length === EVM_ADDRESS_BYTES) return `0x${hex(row.alias)}`;
  const num = decodeEntityId(BigInt(row.id))?.num ?? 0n;
  return num === 0n ? null : longZeroEvmAddress(num);
}

function delegationAddress(bytes: Uint8Array | null): string {
  const address = bytes === null || bytes.length === 0 ? '' : `0x${hex(bytes)}`;
  return address === '' || address === ZERO_EVM_ADDRESS ? '0x' : address;
}

export interface AccountFormatOptions {
  /** `response.enableDelegationAddress`. */
  delegationAddress: boolean;
}

/**
 * One account as the API's AccountInfo object. `balance` is null when the query did not select balances
 * (`balance=false` on the list). A node stake (`staked_node_id` other than -1) carries its staking period start
 * (a day number, shown as that day's first nanosecond).
 */
export function formatAccount(row: AccountRow, options: AccountFormatOptions) {
  const stakedNodeId = row.staked_node_id === null ? null : BigInt(row.staked_node_id);
  const stakedToNode = stakedNodeId !== null && stakedNodeId !== -1n;
  const stakePeriodStart = row.stake_period_start === null ? null : BigInt(row.stake_period_start);
  return {
    account: entityId(row.id),
    alias: base32Encode(row.alias),
    auto_renew_period: int64(row.auto_renew_period),
    balance:
      row.balance === undefined
        ? null
        : {
            balance: int64(row.balance),
            timestamp: timestampString(row.balance_timestamp),
            tokens: formatTokenBalances(row.token_balances),
          },
    created_timestamp: timestampString(row.created_timestamp),
    decline_reward: row.decline_reward,
    ...(options.delegationAddress ? { delegation_address: delegationAddress(row.delegation_address) } : {}),
    deleted: row.deleted,
    ethereum_nonce: int64(row.ethereum_nonce),
    evm_address: evmAddress(row),
    expiry_timestamp: expiryTimestamp(row),
    key: keyObject(row.key),
    max_automatic_token_associations: row.max_automatic_token_associations,
    memo: row.memo,
    pending_reward: int64(row.pending_reward),
    receiver_sig_required: row.receiver_sig_required,
    staked_account_id: entityId(row.staked_account_id),
    staked_node_id: stakedToNode ? stakedNodeId : null,
    stake_period_start:
      stakedToNode && stakePeriodStart !== null && stakePeriodStart !== -1n
        ? timestampString(stakePeriodStart * ONE_DAY_NS)
        : null,
  };
}
