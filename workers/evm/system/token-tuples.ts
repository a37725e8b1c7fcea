/**
 * The IHederaTokenService structs, field for field as the consensus node encodes them (TokenTupleUtils,
 * ReturnTypes): HederaToken, TokenInfo, Expiry and the FixedFee, FractionalFee and RoyaltyFee lists. Account and
 * token ids inside them are long-zero addresses.
 */

import { longZeroAddress } from '../addresses.ts';
import { type AbiValue, address, array, bool, int, string, tuple } from './abi.ts';
import { ZERO_ADDRESS } from './addresses.ts';
import { EMPTY_KEY, keyValueTuple } from './keys.ts';
import type { TokenState } from './token-state.ts';

type FeeJson = Record<string, unknown>;

/** TokenKey.keyType of each entry of TokenState.keys: admin, KYC, freeze, wipe, supply, fee schedule, pause. */
export const TOKEN_KEY_TYPES = [1n, 2n, 4n, 8n, 16n, 32n, 64n] as const;

const amount = (value: unknown): bigint => (value === undefined || value === null ? 0n : BigInt(value as string));

const idAddress = (value: unknown): Uint8Array =>
  value === undefined || value === null ? ZERO_ADDRESS : longZeroAddress(BigInt(value as string));

const hasId = (value: unknown): boolean => value !== undefined && value !== null && BigInt(value as string) !== 0n;

export const expiryTuple = (token: TokenState): AbiValue =>
  tuple(
    int(token.expirySeconds),
    token.autoRenewAccount === undefined ? address(ZERO_ADDRESS) : address(longZeroAddress(token.autoRenewAccount)),
    int(token.autoRenewSeconds > 0n ? token.autoRenewSeconds : 0n),
  );

const fixedFeeTuple = (fee: FeeJson): AbiValue =>
  tuple(
    int(amount(fee.amount)),
    address(idAddress(fee.denominating_token_id)),
    bool(!hasId(fee.denominating_token_id)),
    bool(false),
    address(idAddress(fee.collector_account_id)),
  );

const fractionalFeeTuple = (fee: FeeJson): AbiValue =>
  tuple(
    int(amount(fee.numerator)),
    int(amount(fee.denominator)),
    int(amount(fee.minimum_amount)),
    int(amount(fee.maximum_amount)),
    bool(fee.net_of_transfers === true),
    address(idAddress(fee.collector_account_id)),
  );

function royaltyFeeTuple(fee: FeeJson): AbiValue {
  const fallback = (fee.fallback_fee ?? {}) as FeeJson;
  return tuple(
    int(amount(fee.numerator)),
    int(amount(fee.denominator)),
    int(amount(fallback.amount)),
    address(idAddress(fallback.denominating_token_id)),
    bool(!hasId(fallback.denominating_token_id)),
    address(idAddress(fee.collector_account_id)),
  );
}

/** The three fee lists, in the order of TokenInfo and of getTokenCustomFees. */
export const feeArrays = (token: TokenState): AbiValue[] => [
  array(token.fixedFees.map(fixedFeeTuple)),
  array(token.fractionalFees.map(fractionalFeeTuple)),
  array(token.royaltyFees.map(royaltyFeeTuple)),
];

const hederaTokenTuple = (token: TokenState): AbiValue =>
  tuple(
    string(token.name),
    string(token.symbol),
    address(longZeroAddress(token.treasury)),
    string(token.memo),
    bool(token.finiteSupply),
    int(token.maxSupply),
    bool(token.freezeDefault),
    array(token.keys.map((key, i) => tuple(int(TOKEN_KEY_TYPES[i] ?? 0n), keyValueTuple(key ?? EMPTY_KEY)))),
    expiryTuple(token),
  );

export const tokenInfoTuple = (token: TokenState, ledgerId: string): AbiValue =>
  tuple(
    hederaTokenTuple(token),
    int(token.totalSupply),
    bool(token.deleted),
    bool(token.kycGrantedByDefault),
    bool(token.paused),
    ...feeArrays(token),
    string(ledgerId),
  );

/** The ledger id as the consensus node prints it in TokenInfo: its bytes in hex, `0x00` mainnet … `0x03` other. */
export function ledgerIdOf(network: 'MAINNET' | 'TESTNET' | 'PREVIEWNET' | 'OTHER'): string {
  return { MAINNET: '0x00', TESTNET: '0x01', PREVIEWNET: '0x02', OTHER: '0x03' }[network];
}
