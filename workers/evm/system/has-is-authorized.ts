/**
 * HAS `isAuthorized(address,bytes,bytes)` (HIP-632): whether the signatures of a protobuf SignatureMap over a raw
 * message satisfy the account's whole key, key lists and threshold keys included (IsAuthorizedCall). An ED25519 key
 * verifies its signature over the message, an ECDSA secp256k1 key over the message's keccak-256; contract keys never
 * count. Gas is ECRECOVER's 3,000 per ECDSA key and 1,500,000 per ED25519 key in the account's key; an unknown account
 * or one without a key answers its code with `false` for all the gas left.
 */
import type { ExecResult } from '@ethereumjs/evm';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { fields } from '../../format/protobuf-reader.ts';
import { bool, encode, int } from './abi.ts';
import { accountAt, type HtsCall } from './hts-context.ts';
import { KEY_ECDSA_SECP256K1, KEY_ED25519, KEY_LIST, KEY_THRESHOLD } from './keys.ts';
import { type ResponseCodeName, responseCode, success } from './results.ts';

const EC_KEY_GAS = 3000n;
const ED_KEY_GAS = 1_500_000n;

/** SignaturePair fields: the public key prefix, an ED25519 and an ECDSA secp256k1 signature. */
const PAIR_PREFIX = 1;
const PAIR_ED25519 = 3;
const PAIR_ECDSA = 6;
const EC_SIGNATURE = 64;

export interface SignaturePair {
  readonly prefix: Uint8Array;
  readonly kind: 'ed' | 'ec' | 'other';
  readonly signature: Uint8Array;
  /** What followed an ECDSA signature's r and s: its recovery id (v), empty when it had none. */
  readonly recovery: Uint8Array;
}

/** The pairs of a SignatureMap; an ECDSA signature with a recovery byte is cut to its r and s. */
export function signaturePairs(blob: Uint8Array): SignaturePair[] {
  const pairs: SignaturePair[] = [];
  for (const field of fields(blob)) {
    if (!('bytes' in field) || field.number !== 1) continue;
    let prefix: Uint8Array = new Uint8Array();
    let kind: SignaturePair['kind'] = 'other';
    let signature: Uint8Array = new Uint8Array();
    let recovery: Uint8Array = new Uint8Array();
    for (const part of fields(field.bytes)) {
      if (!('bytes' in part)) continue;
      if (part.number === PAIR_PREFIX) prefix = part.bytes;
      else {
        kind = part.number === PAIR_ED25519 ? 'ed' : part.number === PAIR_ECDSA ? 'ec' : 'other';
        const long = kind === 'ec' && part.bytes.length > EC_SIGNATURE;
        signature = long ? part.bytes.subarray(0, EC_SIGNATURE) : part.bytes;
        recovery = long ? part.bytes.subarray(EC_SIGNATURE) : new Uint8Array();
      }
    }
    pairs.push({ prefix, kind, signature, recovery });
  }
  return pairs;
}

/** The key's list (of a KeyList, or the list inside a ThresholdKey) and the number of its keys that must sign. */
function listOf(field: { number: number; bytes: Uint8Array }): { keys: Uint8Array[]; needed: number } {
  let list = field.bytes;
  let threshold: number | undefined;
  if (field.number === KEY_THRESHOLD) {
    for (const part of fields(field.bytes)) {
      if ('varint' in part && part.number === 1) threshold = Number(part.varint);
      if ('bytes' in part && part.number === 2) list = part.bytes;
    }
  }
  const keys: Uint8Array[] = [];
  for (const part of fields(list)) if ('bytes' in part && part.number === 1) keys.push(part.bytes);
  return { keys, needed: threshold ?? keys.length };
}

/** ECDSA and ED25519 keys anywhere in the key (SignatureVerifier.countSimpleKeys). */
function simpleKeyGas(key: Uint8Array): bigint {
  let gas = 0n;
  for (const field of fields(key)) {
    if (!('bytes' in field)) continue;
    if (field.number === KEY_ECDSA_SECP256K1) gas += EC_KEY_GAS;
    else if (field.number === KEY_ED25519) gas += ED_KEY_GAS;
    else if (field.number === KEY_LIST || field.number === KEY_THRESHOLD) {
      for (const inner of listOf(field).keys) gas += simpleKeyGas(inner);
    }
  }
  return gas;
}

const startsWith = (bytes: Uint8Array, prefix: Uint8Array) => prefix.every((byte, i) => bytes[i] === byte);

/** Whether the pair's signature over `message` verifies with `publicKey` (ECDSA over the message's keccak-256). */
export function pairVerifies(pair: SignaturePair, publicKey: Uint8Array, message: Uint8Array): boolean {
  try {
    if (pair.kind === 'ed') return ed25519.verify(pair.signature, message, publicKey);
    if (pair.kind === 'ec') {
      return secp256k1.verify(pair.signature, keccak_256(message), publicKey, { prehash: false, lowS: false });
    }
  } catch {
    return false;
  }
  return false;
}

function signed(publicKey: Uint8Array, kind: 'ed' | 'ec', message: Uint8Array, pairs: readonly SignaturePair[]) {
  const pair = pairs.find((candidate) => candidate.kind === kind && startsWith(publicKey, candidate.prefix));
  return pair !== undefined && pairVerifies(pair, publicKey, message);
}

function keyVerified(key: Uint8Array, message: Uint8Array, pairs: readonly SignaturePair[]): boolean {
  for (const field of fields(key)) {
    if (!('bytes' in field)) continue;
    if (field.number === KEY_ED25519) return signed(field.bytes, 'ed', message, pairs);
    if (field.number === KEY_ECDSA_SECP256K1) return signed(field.bytes, 'ec', message, pairs);
    if (field.number === KEY_LIST || field.number === KEY_THRESHOLD) {
      const { keys, needed } = listOf(field);
      const valid = keys.filter((inner) => keyVerified(inner, message, pairs)).length;
      return keys.length > 0 && needed > 0 && valid >= needed;
    }
    return false;
  }
  return false;
}

export async function isAuthorized(call: HtsCall): Promise<ExecResult> {
  const { args, gasLimit } = call;
  const [target, message, blob] = [args.address(0), args.bytes(1), args.bytes(2)];
  const answer = (status: ResponseCodeName, authorized: boolean, gas: bigint) =>
    success(gas, gasLimit, encode(int(responseCode(status)), bool(authorized)));
  const account = await accountAt(call, target);
  if (!account) return answer('INVALID_ACCOUNT_ID', false, gasLimit);
  if (!account.key) return answer('INVALID_TRANSACTION_BODY', false, gasLimit);
  let pairs: SignaturePair[];
  try {
    pairs = signaturePairs(blob);
  } catch {
    return answer('INVALID_TRANSACTION_BODY', false, gasLimit);
  }
  return answer('SUCCESS', keyVerified(account.key, message, pairs), simpleKeyGas(account.key));
}
