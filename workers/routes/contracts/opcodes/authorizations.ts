/**
 * EIP-7702 (HIP-1340): the authorizations of a type 4 transaction that the consensus node applied, found again from
 * the transaction itself as the node finds them: the authority recovered from each signature, skipped when its
 * chain id is another network's or the authority's nonce did not match.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesFromHex } from '../../../../db/bytea.ts';
import type { Database } from '../../../../db/client.ts';
import { evmEntityIdByAddress } from '../../../../db/queries/evm-entities.ts';
import { delegationUpdates } from '../../../../db/queries/evm-opcodes.ts';
import type { CodeDelegation } from '../../../evm/types.ts';

/** One `ethereum_transaction.authorization_list` entry as the importer stores it (hex digits, `0x` optional). */
export interface StoredAuthorization {
  readonly chain_id: string;
  readonly address: string;
  readonly nonce: number | string;
  readonly y_parity: number;
  readonly r: string;
  readonly s: string;
}

const digits = (hex: string) => hex.replace(/^0x/, '');
const bytesOf = (hex: string) => bytesFromHex(digits(hex));
const integerOf = (hex: string) => BigInt(`0x${digits(hex) || '0'}`);

/** EIP-7702's prefix of the signed message: `keccak(0x05 || rlp([chain_id, address, nonce]))`. */
const AUTHORIZATION_MAGIC = 0x05;

function rlpLength(length: number, offset: number): number[] {
  if (length < 56) return [offset + length];
  const digits: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) digits.unshift(rest % 256);
  return [offset + 55 + digits.length, ...digits];
}

const rlpBytes = (bytes: Uint8Array): number[] =>
  bytes.length === 1 && (bytes[0] ?? 0) < 0x80 ? [...bytes] : [...rlpLength(bytes.length, 0x80), ...bytes];

/** Big-endian without leading zeros (zero: no bytes), as RLP writes an integer. */
function integerBytes(value: bigint): Uint8Array {
  if (value === 0n) return new Uint8Array();
  const hex = value.toString(16);
  return bytesFromHex(hex.length % 2 ? `0${hex}` : hex);
}

/** The address that signed `entry`, or undefined for a signature that recovers none. */
export function authorityOf(entry: StoredAuthorization): Uint8Array | undefined {
  const chainId = integerBytes(integerOf(entry.chain_id));
  const fields = [
    ...rlpBytes(chainId),
    ...rlpBytes(bytesOf(entry.address)),
    ...rlpBytes(integerBytes(BigInt(entry.nonce))),
  ];
  const message = keccak_256(Uint8Array.from([AUTHORIZATION_MAGIC, ...rlpLength(fields.length, 0xc0), ...fields]));
  const signature = new Uint8Array(65);
  signature[0] = entry.y_parity;
  const r = bytesOf(entry.r);
  const s = bytesOf(entry.s);
  signature.set(r, 33 - r.length);
  signature.set(s, 65 - s.length);
  try {
    const key = secp256k1.recoverPublicKey(signature, message, { prehash: false });
    return keccak_256(secp256k1.Point.fromBytes(key).toBytes(false).subarray(1)).subarray(12);
  } catch {
    return undefined;
  }
}

/**
 * The delegations applied, in order, on the state just before the transaction at `timestamp`. The authority's nonce
 * check is the consensus node's, but the ledger does not record the nonce an authorization moves on; so an
 * authorization counts as applied when the node reported its authority's update as a child of this transaction.
 */
export async function appliedDelegations(
  db: Database,
  list: readonly StoredAuthorization[],
  chainId: bigint,
  timestamp: bigint,
): Promise<CodeDelegation[]> {
  const updated = await delegationUpdates(db, timestamp);
  const nonces = new Map<bigint, bigint>();
  const applied: CodeDelegation[] = [];
  for (const entry of list) {
    const entryChain = integerOf(entry.chain_id);
    if (entryChain !== 0n && entryChain !== chainId) continue;
    const authority = authorityOf(entry);
    if (!authority) continue;
    const id = await evmEntityIdByAddress(db, authority, timestamp - 1n);
    if (id === undefined || !updated.has(id)) continue;
    // One authority twice: the second applies only with the nonce the first moved on to.
    const expected = nonces.get(id);
    if (expected !== undefined && BigInt(entry.nonce) !== expected) continue;
    nonces.set(id, BigInt(entry.nonce) + 1n);
    applied.push({ authority, delegate: bytesOf(entry.address) });
  }
  return applied;
}
