/**
 * The signer of an EthereumTransaction's raw Ethereum transaction, as a node finds it: the signed payload rebuilt
 * without the signature (for a legacy EIP-155 transaction with the chain id and two empty fields in its place),
 * its keccak-256, and the public key recovered from (r, s, recovery id). When the call data came in a file (the
 * body's `call_data`, which relays and the SDK use for large data), the payload is rebuilt with that data, which
 * is what was signed.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import {
  decodeEthereumTransaction,
  type EthereumTransaction,
  toBigInt,
} from '../../ingest/decode/ethereum-transaction.ts';
import { decodeRlp, encodeRlp, type RlpItem } from '../../ingest/decode/rlp.ts';

export interface SignedEthereum {
  readonly tx: EthereumTransaction;
  /** The call data, from the raw transaction or from the file that holds it. */
  readonly callData: Uint8Array;
  /** The 20-byte address of the signer. */
  readonly sender: Uint8Array;
  /** keccak-256 of the raw transaction as signed (with its call data in place): the record's `ethereum_hash`. */
  readonly hash: Uint8Array;
}

const pad32 = (bytes: Uint8Array) => {
  const out = new Uint8Array(32);
  out.set(bytes.subarray(Math.max(0, bytes.length - 32)), 32 - Math.min(32, bytes.length));
  return out;
};

/** Throws on a transaction that does not decode or whose signature recovers no key. */
export function signedEthereum(raw: Uint8Array, fileCallData?: Uint8Array): SignedEthereum {
  const typed = raw[0] !== undefined && raw[0] < 0xc0;
  const fields = [...(decodeRlp(typed ? raw.subarray(1) : raw) as readonly RlpItem[])];
  const tx = decodeEthereumTransaction(raw);
  const dataIndex = tx.type === 0 ? 5 : tx.type === 1 ? 6 : 7;
  const callData = fileCallData ?? tx.callData;
  if (fileCallData) fields[dataIndex] = fileCallData;
  const unsigned = fields.slice(0, -3);
  const encode = (items: readonly RlpItem[]) =>
    typed ? Uint8Array.from([raw[0] ?? 0, ...encodeRlp(items)]) : encodeRlp(items);
  const payload =
    tx.type === 0 && tx.chainId !== undefined
      ? encode([...unsigned, tx.chainId, new Uint8Array(), new Uint8Array()])
      : encode(unsigned);
  const signature = new Uint8Array(65);
  signature[0] = tx.recoveryId;
  signature.set(pad32(tx.r), 1);
  signature.set(pad32(tx.s), 33);
  const publicKey = secp256k1.recoverPublicKey(signature, keccak_256(payload), { prehash: false });
  const point = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  const full = fileCallData ? encode(fields) : raw;
  return { tx, callData, sender: keccak_256(point.subarray(1)).subarray(12), hash: keccak_256(full) };
}

export const weibarsOf = (bytes: Uint8Array | undefined): bigint => (bytes ? toBigInt(bytes) : 0n);
