/**
 * The IHederaTokenService structs a token creation or update passes in, decoded (HederaToken, TokenKey, KeyValue,
 * Expiry and the fee lists, in every version's layout: their members are all single words or dynamic values at
 * the same places), and a KeyValue turned into the protobuf Key the token stores.
 */
import { entityIdOfLongZero } from '../addresses.ts';
import type { AbiArgs } from './abi.ts';
import { ZERO_ADDRESS } from './addresses.ts';

const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);
const isZero = (address: Uint8Array) => equal(address, ZERO_ADDRESS);

export interface KeyInput {
  readonly inheritAccountKey: boolean;
  readonly contractId: Uint8Array;
  readonly ed25519: Uint8Array;
  readonly ecdsaSecp256k1: Uint8Array;
  readonly delegatableContractId: Uint8Array;
}

export interface TokenKeyInput {
  /** The bits of the keys this KeyValue sets: 1 admin, 2 KYC, 4 freeze, 8 wipe, 16 supply, 32 fee schedule, 64 pause. */
  readonly keyType: bigint;
  readonly key: KeyInput;
}

export interface ExpiryInput {
  readonly second: bigint;
  readonly autoRenewAccount: Uint8Array;
  readonly autoRenewPeriod: bigint;
}

export interface HederaTokenInput {
  readonly name: string;
  readonly symbol: string;
  readonly treasury: Uint8Array;
  readonly memo: string;
  readonly finiteSupply: boolean;
  readonly maxSupply: bigint;
  readonly freezeDefault: boolean;
  readonly keys: readonly TokenKeyInput[];
  readonly expiry: ExpiryInput;
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

function keyInput(args: AbiArgs): KeyInput {
  return {
    inheritAccountKey: args.bool(0),
    contractId: args.address(1),
    ed25519: args.bytes(2),
    ecdsaSecp256k1: args.bytes(3),
    delegatableContractId: args.address(4),
  };
}

export function tokenKeysOf(list: { length: number; items: AbiArgs }): TokenKeyInput[] {
  return Array.from({ length: list.length }, (_, i) => {
    const item = list.items.tuple(i);
    return { keyType: item.uint(0), key: keyInput(item.tuple(1)) };
  });
}

/** An Expiry tuple whose three words start at head slot `at` of `args`. */
export function expiryOf(args: AbiArgs, at = 0): ExpiryInput {
  return { second: args.int(at, 64), autoRenewAccount: args.address(at + 1), autoRenewPeriod: args.int(at + 2, 64) };
}

/** The HederaToken in head slot `index`. */
export function hederaTokenOf(args: AbiArgs, index: number): HederaTokenInput {
  const token = args.tuple(index);
  return {
    name: text(token.bytes(0)),
    symbol: text(token.bytes(1)),
    treasury: token.address(2),
    memo: text(token.bytes(3)),
    finiteSupply: token.bool(4),
    maxSupply: token.int(5, 64),
    freezeDefault: token.bool(6),
    keys: tokenKeysOf(token.array(7)),
    // The Expiry is static: its three words sit inline at slots 8 to 10.
    expiry: expiryOf(token, 8),
  };
}

function varint(value: bigint): number[] {
  const out: number[] = [];
  let rest = value;
  do {
    const byte = Number(rest & 0x7fn);
    rest >>= 7n;
    out.push(rest > 0n ? byte | 0x80 : byte);
  } while (rest > 0n);
  return out;
}

const lengthDelimited = (field: number, bytes: Uint8Array | number[]): number[] => [
  (field << 3) | 2,
  ...varint(BigInt(bytes.length)),
  ...bytes,
];

/** A ContractID message for a contract address: its numbers for a long-zero address, else the EVM address. */
function contractIdMessage(address: Uint8Array, shard: bigint, realm: bigint): number[] {
  const id = entityIdOfLongZero(address, shard, realm);
  if (id === undefined) return lengthDelimited(4, address);
  const num = new DataView(address.buffer, address.byteOffset, 20).getBigUint64(12);
  return [
    ...(shard > 0n ? [0x08, ...varint(shard)] : []),
    ...(realm > 0n ? [0x10, ...varint(realm)] : []),
    0x18,
    ...varint(num),
  ];
}

/** The protobuf Key naming a contract: a ContractID key, or a DelegatableContractID key when `delegatable`. */
export function contractKeyBytes(
  contract: Uint8Array,
  delegatable: boolean,
  network: { shard: bigint; realm: bigint },
): Uint8Array {
  return new Uint8Array(
    lengthDelimited(delegatable ? 8 : 1, contractIdMessage(contract, network.shard, network.realm)),
  );
}

/**
 * The protobuf Key of a KeyValue (KeyValueWrapper on the consensus node: the first kind set, in the order inherit,
 * contract id, ED25519, ECDSA, delegatable contract id); undefined when it sets none. `inherited`: the sender's
 * key, which `inheritAccountKey` stands for.
 */
function keyBytesOf(
  key: KeyInput,
  inherited: Uint8Array | undefined,
  network: { shard: bigint; realm: bigint },
): Uint8Array | undefined {
  if (key.inheritAccountKey) return inherited;
  if (!isZero(key.contractId)) return contractKeyBytes(key.contractId, false, network);
  if (key.ed25519.length > 0) return new Uint8Array(lengthDelimited(2, key.ed25519));
  if (key.ecdsaSecp256k1.length > 0) return new Uint8Array(lengthDelimited(7, key.ecdsaSecp256k1));
  if (!isZero(key.delegatableContractId)) return contractKeyBytes(key.delegatableContractId, true, network);
  return undefined;
}

/** The seven token keys (TokenState.keyBytes order) a TokenKey list sets; `base` for the bits it leaves alone. */
export function keyBytesFromList(
  list: readonly TokenKeyInput[],
  base: readonly (Uint8Array | undefined)[],
  inherited: Uint8Array | undefined,
  network: { shard: bigint; realm: bigint },
): (Uint8Array | undefined)[] {
  const keys = [...base];
  for (const { keyType, key } of list) {
    const bytes = keyBytesOf(key, inherited, network);
    for (let bit = 0; bit < 7; bit++) if ((keyType >> BigInt(bit)) & 1n) keys[bit] = bytes;
  }
  return keys;
}

export const isZeroAddress = isZero;

/** The HederaToken struct of each version (maxSupply and the Expiry's words widened in v2 and v3). */
export const HEDERA_TOKEN_V1 =
  '(string,string,address,string,bool,uint32,bool,(uint256,(bool,address,bytes,bytes,address))[],(uint32,address,uint32))';
export const HEDERA_TOKEN_V2 =
  '(string,string,address,string,bool,int64,bool,(uint256,(bool,address,bytes,bytes,address))[],(uint32,address,uint32))';
export const HEDERA_TOKEN_V3 =
  '(string,string,address,string,bool,int64,bool,(uint256,(bool,address,bytes,bytes,address))[],(int64,address,int64))';
