/**
 * The signed Ethereum transaction inside an EthereumTransaction body: legacy (RLP list, chain id folded into
 * v per EIP-155), EIP-2930 (type 1), EIP-1559 (type 2) and EIP-7702 (type 4, with an authorization list).
 */
import { FormatError } from './byte-reader.ts';
import { fromHex } from './hash.ts';
import { decodeRlp, type RlpItem, type RlpList } from './rlp.ts';

export interface EthereumTransaction {
  readonly type: number;
  readonly chainId: Uint8Array | undefined;
  readonly nonce: bigint;
  readonly gasPrice: Uint8Array | undefined;
  readonly maxPriorityFeePerGas: Uint8Array | undefined;
  readonly maxFeePerGas: Uint8Array | undefined;
  readonly gasLimit: bigint;
  readonly to: Uint8Array;
  readonly value: Uint8Array;
  readonly callData: Uint8Array;
  readonly accessList: Uint8Array | undefined;
  readonly authorizationList: RlpList | undefined;
  readonly recoveryId: number;
  readonly v: Uint8Array | undefined;
  readonly r: Uint8Array;
  readonly s: Uint8Array;
}

function bytes(item: RlpItem | undefined, what: string): Uint8Array {
  if (!(item instanceof Uint8Array)) throw new FormatError(`ethereum transaction: ${what} is not a byte string`);
  return item;
}

function list(item: RlpItem | undefined, what: string): RlpList {
  if (item === undefined || item instanceof Uint8Array)
    throw new FormatError(`ethereum transaction: ${what} is not a list`);
  return item;
}

/** A big-endian unsigned integer, as Ethereum (RLP, EVM words) writes it. */
export function toBigInt(value: Uint8Array): bigint {
  let out = 0n;
  for (const byte of value) out = (out << 8n) | BigInt(byte);
  return out;
}

/** The inverse of toBigInt without leading zero bytes (zero and below → empty). */
export function fromBigInt(value: bigint): Uint8Array {
  if (value <= 0n) return new Uint8Array();
  const hex = value.toString(16);
  return fromHex(hex.length % 2 ? `0${hex}` : hex);
}

export function decodeEthereumTransaction(data: Uint8Array): EthereumTransaction {
  const first = data[0];
  if (first === undefined) throw new FormatError('empty ethereum transaction');
  if (first >= 0xc0) {
    const f = list(decodeRlp(data), 'transaction');
    const v = toBigInt(bytes(f[6], 'v'));
    const eip155 = v >= 35n;
    return {
      type: 0,
      chainId: eip155 ? fromBigInt((v - 35n) / 2n) : undefined,
      nonce: toBigInt(bytes(f[0], 'nonce')),
      gasPrice: bytes(f[1], 'gas price'),
      maxPriorityFeePerGas: undefined,
      maxFeePerGas: undefined,
      gasLimit: toBigInt(bytes(f[2], 'gas limit')),
      to: bytes(f[3], 'to'),
      value: bytes(f[4], 'value'),
      callData: bytes(f[5], 'data'),
      accessList: undefined,
      authorizationList: undefined,
      recoveryId: Number(eip155 ? (v - 35n) % 2n : v - 27n),
      v: bytes(f[6], 'v'),
      r: bytes(f[7], 'r'),
      s: bytes(f[8], 's'),
    };
  }
  if (first !== 1 && first !== 2 && first !== 4)
    throw new FormatError(`unsupported ethereum transaction type ${first}`);
  const f = list(decodeRlp(data.subarray(1)), 'transaction');
  const dynamic = first !== 1;
  const at = (i: number) => f[dynamic ? i + 1 : i];
  const tail = first === 4 ? 10 : dynamic ? 9 : 8;
  return {
    type: first,
    chainId: bytes(f[0], 'chain id'),
    nonce: toBigInt(bytes(f[1], 'nonce')),
    gasPrice: dynamic ? undefined : bytes(f[2], 'gas price'),
    maxPriorityFeePerGas: dynamic ? bytes(f[2], 'max priority fee') : undefined,
    maxFeePerGas: dynamic ? bytes(f[3], 'max fee') : undefined,
    gasLimit: toBigInt(bytes(at(3), 'gas limit')),
    to: bytes(at(4), 'to'),
    value: bytes(at(5), 'value'),
    callData: bytes(at(6), 'data'),
    accessList: list(at(7), 'access list').raw,
    authorizationList: first === 4 ? list(f[9], 'authorization list') : undefined,
    recoveryId: Number(toBigInt(bytes(f[tail], 'y parity'))),
    v: undefined,
    r: bytes(f[tail + 1], 'r'),
    s: bytes(f[tail + 2], 's'),
  };
}
