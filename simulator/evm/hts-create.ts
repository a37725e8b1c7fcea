/**
 * Token creation through the HTS system contract: `createFungibleToken` and `createNonFungibleToken` with the
 * HederaToken version whose max supply and expiry words are int64, keys that name contracts, and no custom fees.
 * Their call data, its decoding, and the fee the value sent must cover, as hiero-consensus-node
 * `hedera-smart-contract-service-impl` `exec/systemcontracts/hts/create/ClassicCreatesCall.java` charges it: a fixed
 * 100,000 gas, and from the value the TokenCreate's canonical price (`hapi-fees` `canonical-prices.json`) in tinybars
 * plus a fifth, less what the gas pays. The node collects that fee from the calling contract; the value itself stays
 * with the contract (CustomMessageCallProcessor lets value go "to" 0x167 for creations without moving it).
 */
import { concatBytes } from '../../common/concat-bytes.ts';
import type { ExchangeRate, Token } from '../ledger/ledger.ts';
import { addressWord, readString, readUint, stringTail, word } from './abi.ts';

const HEDERA_TOKEN =
  '(string,string,address,string,bool,int64,bool,(uint256,(bool,address,bytes,bytes,address))[],(int64,address,int64))';
export const CREATE_FUNGIBLE_TOKEN = `createFungibleToken(${HEDERA_TOKEN},int64,int32)`;
export const CREATE_NON_FUNGIBLE_TOKEN = `createNonFungibleToken(${HEDERA_TOKEN})`;

/** ClassicCreatesCall.FIXED_GAS_COST. */
export const CREATE_GAS = 100_000n;
/** TokenCreate's canonical price: $1 in tinycents. */
const TOKEN_CREATE_TINYCENTS = 10_000_000_000n;
/** The gas price in tinycents (852,000 fee schedule units). */
const GAS_PRICE_TINYCENTS = 852n;
/** HederaToken's head: name, symbol, treasury, memo, supply type, max supply, freeze default, keys, and the
 * three words of its Expiry (second, auto-renew account, auto-renew period). */
const TOKEN_HEAD_WORDS = 11;

/** A TokenKey's keyType bit of the supply key (admin 1, KYC 2, freeze 4, wipe 8, supply 16, fee schedule 32, pause 64). */
export const SUPPLY_KEY_TYPE = 16n;

/**
 * The TokenCreate body's field of each keyType bit, in bit order (HAPI's own field names: the simulator's protobuf
 * types keep them).
 */
export const KEY_FIELDS = [
  'adminKey',
  'kycKey',
  'freezeKey',
  'wipeKey',
  'supplyKey',
  'fee_schedule_key',
  'pause_key',
] as const;

/** A TokenKey whose KeyValue names a contract's id: the keys its `keyType` bits select. */
export interface ContractKey {
  readonly keyType: bigint;
  readonly contract: Uint8Array;
}

export interface TokenCreation {
  readonly type: Token['type'];
  readonly name: string;
  readonly symbol: string;
  readonly memo: string;
  /** The treasury's and the auto-renew account's address. */
  readonly treasury: Uint8Array;
  readonly autoRenewAccount: Uint8Array;
  readonly autoRenewPeriod: bigint;
  readonly keys: readonly ContractKey[];
  /** 0 for an NFT collection, whose function takes neither. */
  readonly initialSupply: bigint;
  readonly decimals: bigint;
}

/** The tinybars a creation's value must carry at `rate` (the node's tinycent conversions round down). */
export function creationFee(rate: ExchangeRate): bigint {
  const tinybars = (tinycents: bigint) => (tinycents * BigInt(rate.hbarEquiv)) / BigInt(rate.centEquiv);
  const base = tinybars(TOKEN_CREATE_TINYCENTS);
  return base + base / 5n - CREATE_GAS * tinybars(GAS_PRICE_TINYCENTS);
}

/**
 * The TokenKey[] tail: each TokenKey is (keyType, KeyValue) and each KeyValue (inheritAccountKey, contractId, ed25519,
 * ECDSA_secp256k1, delegatableContractId) with both byte strings empty; offsets count from where they stand.
 */
function keysTail(keys: readonly ContractKey[]): Uint8Array {
  const items = keys.map((key) =>
    concatBytes([
      word(key.keyType),
      word(64n),
      word(0n),
      addressWord(key.contract),
      word(160n),
      word(192n),
      word(0n),
      word(0n),
      word(0n),
    ]),
  );
  let at = BigInt(32 * items.length);
  const offsets = items.map((item) => {
    const offset = word(at);
    at += BigInt(item.length);
    return offset;
  });
  return concatBytes([word(BigInt(items.length)), ...offsets, ...items]);
}

/** The HederaToken tuple: infinite supply, no freeze default, no expiry second. */
function hederaToken(token: TokenCreation): Uint8Array {
  const name = stringTail(token.name);
  const symbol = stringTail(token.symbol);
  const memo = stringTail(token.memo);
  const head = 32 * TOKEN_HEAD_WORDS;
  return concatBytes([
    word(BigInt(head)),
    word(BigInt(head + name.length)),
    addressWord(token.treasury),
    word(BigInt(head + name.length + symbol.length)),
    word(0n),
    word(0n),
    word(0n),
    word(BigInt(head + name.length + symbol.length + memo.length)),
    word(0n),
    addressWord(token.autoRenewAccount),
    word(token.autoRenewPeriod),
    name,
    symbol,
    memo,
    keysTail(token.keys),
  ]);
}

/**
 * The arguments after the selector: for a fungible token the HederaToken tuple's offset, the supply, the decimals and
 * the tuple; for an NFT collection the tuple's offset and the tuple.
 */
export function createArguments(token: TokenCreation): Uint8Array {
  if (token.type === 'NON_FUNGIBLE_UNIQUE') return concatBytes([word(32n), hederaToken(token)]);
  return concatBytes([word(96n), word(token.initialSupply), word(token.decimals), hederaToken(token)]);
}

/** What `createArguments` encoded, read back from the call data (selector included) of a function of `type`. */
export function readCreation(data: Uint8Array, type: Token['type']): TokenCreation {
  const args = data.subarray(4);
  const at = (offset: number, index: number) => args.subarray(offset + 32 * index, offset + 32 * index + 32);
  const tuple = Number(readUint(at(0, 0)));
  const text = (index: number) => readString(args, tuple + Number(readUint(at(tuple, index))));
  const keysAt = tuple + Number(readUint(at(tuple, 7)));
  const keys = Array.from({ length: Number(readUint(at(keysAt, 0))) }, (_, i) => {
    const item = keysAt + 32 + Number(readUint(at(keysAt, 1 + i)));
    const value = item + Number(readUint(at(item, 1)));
    return { keyType: readUint(at(item, 0)), contract: at(value, 1).subarray(12) };
  });
  const fungible = type === 'FUNGIBLE_COMMON';
  return {
    type,
    name: text(0),
    symbol: text(1),
    treasury: at(tuple, 2).subarray(12),
    memo: text(3),
    autoRenewAccount: at(tuple, 9).subarray(12),
    autoRenewPeriod: readUint(at(tuple, 10)),
    keys,
    initialSupply: fungible ? readUint(at(0, 1)) : 0n,
    decimals: fungible ? readUint(at(0, 2)) : 0n,
  };
}
