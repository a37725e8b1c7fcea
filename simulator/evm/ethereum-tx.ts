/**
 * Signed Ethereum transactions, as a wallet sends them through a relay in an EthereumTransaction: legacy with
 * EIP-155 replay protection (type 0), EIP-2930 (type 1), EIP-1559 (type 2) and EIP-7702 (type 4, carrying signed
 * authorizations), RLP-encoded and signed with the sender's secp256k1 key. Access lists are empty: the simulated
 * senders call one contract or delegated account and declare nothing.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { chainIdOfNetwork } from '../../common/chain-ids.ts';
import { encodeRlp, type RlpItem } from '../../ingest/decode/rlp.ts';

/**
 * The chain the simulated network signs for: the one `HIERO_MIRROR_WEB3_EVM_NETWORK` names, the setting the
 * mirror's EVM reads too; unset, a local Hiero network's (the reference's `OTHER`, 298).
 */
export const CHAIN_ID = simulatedChainId(process.env.HIERO_MIRROR_WEB3_EVM_NETWORK);

export function simulatedChainId(network: string | undefined): bigint {
  const chainId = chainIdOfNetwork(network ?? 'OTHER');
  if (chainId === undefined) throw new Error(`HIERO_MIRROR_WEB3_EVM_NETWORK names no network: ${network}`);
  return chainId;
}

export type EthereumType = 0 | 1 | 2 | 4;

/** EIP-7702: an account's consent, signed with its key, to run `address`'s code (the zero address: none). */
export interface Authorization {
  /** 0 (any chain) or the chain's id. */
  readonly chainId: bigint;
  readonly address: Uint8Array;
  readonly nonce: bigint;
  readonly yParity: bigint;
  readonly r: Uint8Array;
  readonly s: Uint8Array;
}

/** EIP-7702's MAGIC: the first byte of an authorization's signed message. */
const AUTHORIZATION_MAGIC = 0x05;

export interface EthereumCall {
  readonly type: EthereumType;
  readonly nonce: bigint;
  /** Weibars per gas (type 2: the maximum fee per gas, with no priority fee). */
  readonly gasPrice: bigint;
  readonly gasLimit: bigint;
  readonly to: Uint8Array;
  /** Weibars sent with the call (none when absent). */
  readonly value?: bigint;
  readonly data: Uint8Array;
  /** Type 4 only. */
  readonly authorizations?: readonly Authorization[];
}

/** A big-endian unsigned integer without leading zeros, as RLP writes numbers (zero is empty). */
function integer(value: bigint): Uint8Array {
  if (value === 0n) return new Uint8Array();
  const hex = value.toString(16);
  return new Uint8Array(Buffer.from(hex.length % 2 === 1 ? `0${hex}` : hex, 'hex'));
}

function signDigest(digest: Uint8Array, privateKey: Uint8Array): { recovery: bigint; r: Uint8Array; s: Uint8Array } {
  const signature = secp256k1.sign(digest, privateKey, { prehash: false, format: 'recovered' });
  const strip = (bytes: Uint8Array) => integer(BigInt(`0x${Buffer.from(bytes).toString('hex')}`));
  return {
    recovery: BigInt(signature[0] ?? 0),
    r: strip(signature.subarray(1, 33)),
    s: strip(signature.subarray(33, 65)),
  };
}

/** Signs keccak(0x05 || rlp([chain_id, address, nonce])) with the authority's key. */
export function signAuthorization(
  chainId: bigint,
  address: Uint8Array,
  nonce: bigint,
  privateKey: Uint8Array,
): Authorization {
  const message = Uint8Array.from([AUTHORIZATION_MAGIC, ...encodeRlp([integer(chainId), address, integer(nonce)])]);
  const { recovery, r, s } = signDigest(keccak_256(message), privateKey);
  return { chainId, address, nonce, yParity: recovery, r, s };
}

/** The raw signed transaction (the EthereumTransaction's `ethereum_data`) and its hash (the record's `ethereum_hash`). */
export function signEthereumCall(call: EthereumCall, privateKey: Uint8Array): { raw: Uint8Array; hash: Uint8Array } {
  const common = [
    integer(call.nonce),
    integer(call.gasPrice),
    integer(call.gasLimit),
    call.to,
    integer(call.value ?? 0n),
    call.data,
  ];
  const typed = (type: number, fields: readonly RlpItem[]) => Uint8Array.from([type, ...encodeRlp(fields)]);
  // Types 2 and 4 replace the gas price by a priority fee (none) and a maximum fee per gas.
  const dynamic = [integer(CHAIN_ID), integer(call.nonce), new Uint8Array(), ...common.slice(1), []];
  const authorizations = (call.authorizations ?? []).map((a) => [
    integer(a.chainId),
    a.address,
    integer(a.nonce),
    integer(a.yParity),
    a.r,
    a.s,
  ]);
  const unsignedFields: readonly RlpItem[] =
    call.type === 0
      ? [...common, integer(CHAIN_ID), new Uint8Array(), new Uint8Array()]
      : call.type === 1
        ? [integer(CHAIN_ID), ...common, []]
        : call.type === 2
          ? dynamic
          : [...dynamic, authorizations];
  const encode = (fields: readonly RlpItem[]) => (call.type === 0 ? encodeRlp(fields) : typed(call.type, fields));
  const { recovery, r, s } = signDigest(keccak_256(encode(unsignedFields)), privateKey);
  const raw =
    call.type === 0
      ? encodeRlp([...common, integer(recovery + CHAIN_ID * 2n + 35n), r, s])
      : encode([...unsignedFields, integer(recovery), r, s]);
  return { raw, hash: keccak_256(raw) };
}
