/**
 * A token as the HTS system contract sees it at the EVM's block: the `token` row with its entity and custom fees
 * (their newest versions at or before the block for a historical call), with the total supply recomputed for a
 * past block (§6 of the design note: the stored supply of a history row is not the supply at that time).
 */
import { evmTokenAt, fungibleSupplyAt, nftSupplyAt } from '../../../db/queries/evm-system-tokens.ts';
import type { LedgerReader } from '../types.ts';
import { type KeyValue, keyValueOf } from './keys.ts';

type FeeJson = Record<string, unknown>;

export interface TokenState {
  readonly id: bigint;
  readonly fungible: boolean;
  readonly name: string;
  readonly symbol: string;
  readonly memo: string;
  readonly decimals: bigint;
  readonly totalSupply: bigint;
  readonly maxSupply: bigint;
  readonly finiteSupply: boolean;
  readonly treasury: bigint;
  readonly freezeDefault: boolean;
  /** The token's stored KYC status is GRANTED (the reference's `accountsKycGrantedByDefault`). */
  readonly kycGrantedByDefault: boolean;
  readonly hasKycKey: boolean;
  readonly deleted: boolean;
  readonly paused: boolean;
  /** Admin, KYC, freeze, wipe, supply, fee schedule and pause keys (undefined: none), in the TokenKey list's order. */
  readonly keys: readonly (KeyValue | undefined)[];
  /** The same keys as stored (protobuf Key bytes), for checking whether a call signs with them. */
  readonly keyBytes: readonly (Uint8Array | undefined)[];
  /** The metadata key (HIP-850) as stored; absent for a token created or scheduled through the system contract. */
  readonly metadataKey?: Uint8Array | undefined;
  readonly expirySeconds: bigint;
  readonly autoRenewAccount: bigint | undefined;
  readonly autoRenewSeconds: bigint;
  readonly fixedFees: readonly FeeJson[];
  readonly fractionalFees: readonly FeeJson[];
  readonly royaltyFees: readonly FeeJson[];
}

/**
 * The fields of a token being created, from its keys (Key bytes in TokenState's order): neither deleted nor paused,
 * and no account granted KYC by default.
 */
export const createdTokenFields = (keyBytes: readonly (Uint8Array | undefined)[]) => ({
  kycGrantedByDefault: false,
  hasKycKey: keyBytes[1] !== undefined,
  deleted: false,
  paused: false,
  keys: keyBytes.map((key) => (key === undefined ? undefined : keyValueOf(key))),
  keyBytes,
});

const NS_PER_SECOND = 1_000_000_000n;
const KYC_GRANTED = 1;

const optionalBigInt = (value: string | null): bigint | undefined => (value === null ? undefined : BigInt(value));

/** The token with id `tokenId` at the reader's block; undefined when no such token existed then. */
export async function loadToken(reader: LedgerReader, tokenId: bigint): Promise<TokenState | undefined> {
  const { block } = reader;
  const at = block.historical ? block.consensusEnd : undefined;
  const row = await evmTokenAt(reader.db, tokenId, at);
  if (!row) return undefined;
  const fungible = row.type === 'FUNGIBLE_COMMON';
  const keyBytes = [
    row.key,
    row.kyc_key,
    row.freeze_key,
    row.wipe_key,
    row.supply_key,
    row.fee_schedule_key,
    row.pause_key,
  ].map((key) => key ?? undefined);
  let totalSupply = BigInt(row.total_supply);
  if (at !== undefined) {
    totalSupply = fungible ? await fungibleSupplyAt(reader.db, tokenId, at) : await nftSupplyAt(reader.db, tokenId, at);
  }
  const autoRenewSeconds = optionalBigInt(row.auto_renew_period) ?? 0n;
  const expiryNs =
    optionalBigInt(row.expiration_timestamp) ?? BigInt(row.created_timestamp) + autoRenewSeconds * NS_PER_SECOND;
  const autoRenewAccount = optionalBigInt(row.auto_renew_account_id);
  return {
    id: tokenId,
    fungible,
    name: row.name,
    symbol: row.symbol,
    memo: row.memo,
    decimals: BigInt(row.decimals),
    totalSupply,
    maxSupply: BigInt(row.max_supply),
    finiteSupply: row.supply_type === 'FINITE',
    treasury: BigInt(row.treasury_account_id),
    freezeDefault: row.freeze_default,
    kycGrantedByDefault: row.kyc_status === KYC_GRANTED,
    hasKycKey: row.kyc_key !== null,
    deleted: row.deleted === true,
    paused: row.pause_status === 'PAUSED',
    keys: keyBytes.map((key) => (key === undefined ? undefined : keyValueOf(key))),
    keyBytes,
    metadataKey: row.metadata_key ?? undefined,
    expirySeconds: expiryNs / NS_PER_SECOND,
    autoRenewAccount: autoRenewAccount === 0n ? undefined : autoRenewAccount,
    autoRenewSeconds,
    fixedFees: row.fixed_fees ?? [],
    fractionalFees: row.fractional_fees ?? [],
    royaltyFees: row.royalty_fees ?? [],
  };
}

/** Token.DEFAULT of the consensus node: what a failed direct HTS view answers with beside its response code. */
export const DEFAULT_TOKEN: TokenState = {
  id: 0n,
  fungible: true,
  name: '',
  symbol: '',
  memo: '',
  decimals: 0n,
  totalSupply: 0n,
  maxSupply: 0n,
  finiteSupply: false,
  treasury: 0n,
  freezeDefault: false,
  kycGrantedByDefault: false,
  hasKycKey: false,
  deleted: false,
  paused: false,
  keys: Array.from({ length: 7 }, () => undefined),
  keyBytes: Array.from({ length: 7 }, () => undefined),
  expirySeconds: 0n,
  autoRenewAccount: undefined,
  autoRenewSeconds: 0n,
  fixedFees: [],
  fractionalFees: [],
  royaltyFees: [],
};
