/**
 * Signed Ethereum transactions, as a wallet sends them through a relay in an EthereumTransaction: legacy with
 * EIP-155 replay protection (type 0), EIP-2930 (type 1) and EIP-1559 (type 2), RLP-encoded and signed with the
 * sender's secp256k1 key. Access lists are empty: the simulated senders call one contract and declare nothing.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';

/** The chain id of a local Hiero network (the reference's `OTHER`). */
export const CHAIN_ID = 298n;

export type EthereumType = 0 | 1 | 2;

export interface EthereumCall {
  readonly type: EthereumType;
  readonly nonce: bigint;
  /** Weibars per gas (type 2: the maximum fee per gas, with no priority fee). */
  readonly gasPrice: bigint;
  readonly gasLimit: bigint;
  readonly to: Uint8Array;
  readonly data: Uint8Array;
}

type Rlp = Uint8Array | readonly Rlp[];

function lengthPrefix(length: number, offset: number): Uint8Array {
  if (length < 56) return Uint8Array.of(offset + length);
  const bytes = integer(BigInt(length));
  return Uint8Array.of(offset + 55 + bytes.length, ...bytes);
}

/** Recursive length prefix encoding (Ethereum yellow paper, appendix B). */
export function encodeRlp(item: Rlp): Uint8Array {
  if (item instanceof Uint8Array) {
    if (item.length === 1 && (item[0] ?? 0) < 0x80) return item;
    return Uint8Array.from([...lengthPrefix(item.length, 0x80), ...item]);
  }
  const body = (item as readonly Rlp[]).map(encodeRlp);
  const length = body.reduce((n, part) => n + part.length, 0);
  const out = new Uint8Array(lengthPrefix(length, 0xc0).length + length);
  out.set(lengthPrefix(length, 0xc0));
  let at = out.length - length;
  for (const part of body) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A big-endian unsigned integer without leading zeros, as RLP writes numbers (zero is empty). */
function integer(value: bigint): Uint8Array {
  if (value === 0n) return new Uint8Array();
  const hex = value.toString(16);
  return new Uint8Array(Buffer.from(hex.length % 2 === 1 ? `0${hex}` : hex, 'hex'));
}

/** The raw signed transaction (the EthereumTransaction's `ethereum_data`) and its hash (the record's `ethereum_hash`). */
export function signEthereumCall(call: EthereumCall, privateKey: Uint8Array): { raw: Uint8Array; hash: Uint8Array } {
  const common = [
    integer(call.nonce),
    integer(call.gasPrice),
    integer(call.gasLimit),
    call.to,
    new Uint8Array(),
    call.data,
  ];
  const typed = (type: number, fields: readonly Rlp[]) => Uint8Array.from([type, ...encodeRlp(fields)]);
  const unsigned =
    call.type === 0
      ? encodeRlp([...common, integer(CHAIN_ID), new Uint8Array(), new Uint8Array()])
      : call.type === 1
        ? typed(1, [integer(CHAIN_ID), ...common, []])
        : typed(2, [integer(CHAIN_ID), integer(call.nonce), new Uint8Array(), ...common.slice(1), []]);
  const signature = secp256k1.sign(keccak_256(unsigned), privateKey, { prehash: false, format: 'recovered' });
  const recovery = BigInt(signature[0] ?? 0);
  const r = signature.subarray(1, 33);
  const s = signature.subarray(33, 65);
  const strip = (bytes: Uint8Array) => integer(BigInt(`0x${Buffer.from(bytes).toString('hex')}`));
  const raw =
    call.type === 0
      ? encodeRlp([...common, integer(recovery + CHAIN_ID * 2n + 35n), strip(r), strip(s)])
      : call.type === 1
        ? typed(1, [integer(CHAIN_ID), ...common, [], integer(recovery), strip(r), strip(s)])
        : typed(2, [
            integer(CHAIN_ID),
            integer(call.nonce),
            new Uint8Array(),
            ...common.slice(1),
            [],
            integer(recovery),
            strip(r),
            strip(s),
          ]);
  return { raw, hash: keccak_256(raw) };
}
