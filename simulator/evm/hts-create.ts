/**
 * Token creation through the HTS system contract: `createFungibleToken` with the HederaToken version whose max
 * supply and expiry words are int64, no keys and no custom fees. Its call data, its decoding, and the fee the value
 * sent must cover, as hiero-consensus-node `hedera-smart-contract-service-impl`
 * `exec/systemcontracts/hts/create/ClassicCreatesCall.java` charges it: a fixed 100,000 gas, and from the value the
 * TokenCreate's canonical price (`hapi-fees` `canonical-prices.json`) in tinybars plus a fifth, less what the gas
 * pays. The node collects that fee from the calling contract; the value itself stays with the contract
 * (CustomMessageCallProcessor lets value go "to" 0x167 for creations without moving it).
 */
import type { ExchangeRate } from '../ledger/ledger.ts';
import { addressWord, concat, readString, readUint, stringTail, word } from './abi.ts';

export const CREATE_FUNGIBLE_TOKEN =
  'createFungibleToken((string,string,address,string,bool,int64,bool,(uint256,(bool,address,bytes,bytes,address))[],(int64,address,int64)),int64,int32)';

/** ClassicCreatesCall.FIXED_GAS_COST. */
export const CREATE_GAS = 100_000n;
/** TokenCreate's canonical price: $1 in tinycents. */
const TOKEN_CREATE_TINYCENTS = 10_000_000_000n;
/** The gas price in tinycents (852,000 fee schedule units). */
const GAS_PRICE_TINYCENTS = 852n;
/** HederaToken's head: name, symbol, treasury, memo, supply type, max supply, freeze default, keys, and the
 * three words of its Expiry (second, auto-renew account, auto-renew period). */
const TOKEN_HEAD_WORDS = 11;

export interface FungibleCreation {
  readonly name: string;
  readonly symbol: string;
  readonly memo: string;
  /** The treasury's and the auto-renew account's address. */
  readonly treasury: Uint8Array;
  readonly autoRenewAccount: Uint8Array;
  readonly autoRenewPeriod: bigint;
  readonly initialSupply: bigint;
  readonly decimals: bigint;
}

/** The tinybars a creation's value must carry at `rate` (the node's tinycent conversions round down). */
export function creationFee(rate: ExchangeRate): bigint {
  const tinybars = (tinycents: bigint) => (tinycents * BigInt(rate.hbarEquiv)) / BigInt(rate.centEquiv);
  const base = tinybars(TOKEN_CREATE_TINYCENTS);
  return base + base / 5n - CREATE_GAS * tinybars(GAS_PRICE_TINYCENTS);
}

/** The arguments after `selector`: the HederaToken tuple (no keys, no expiry second), the supply, the decimals. */
export function createArguments(token: FungibleCreation): Uint8Array {
  const name = stringTail(token.name);
  const symbol = stringTail(token.symbol);
  const memo = stringTail(token.memo);
  const head = 32 * TOKEN_HEAD_WORDS;
  const tuple = concat([
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
    word(0n),
  ]);
  return concat([word(96n), word(token.initialSupply), word(token.decimals), tuple]);
}

/** What `createArguments` encoded, read back from the call data (selector included). */
export function readCreation(data: Uint8Array): FungibleCreation {
  const args = data.subarray(4);
  const at = (offset: number, index: number) => args.subarray(offset + 32 * index, offset + 32 * index + 32);
  const tuple = Number(readUint(at(0, 0)));
  const text = (index: number) => readString(args, tuple + Number(readUint(at(tuple, index))));
  return {
    name: text(0),
    symbol: text(1),
    treasury: at(tuple, 2).subarray(12),
    memo: text(3),
    autoRenewAccount: at(tuple, 9).subarray(12),
    autoRenewPeriod: readUint(at(tuple, 10)),
    initialSupply: readUint(at(0, 1)),
    decimals: readUint(at(0, 2)),
  };
}
