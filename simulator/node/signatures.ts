/**
 * Keys as a consensus node reads and checks them: a protobuf Key becomes a ledger key (ed25519, ECDSA secp256k1, a
 * key list, a threshold key, a contract id), and a transaction's signature map satisfies a key when its signatures
 * verify over the signed body bytes: ed25519 over the bytes themselves, ECDSA over their keccak-256. A signature pair
 * names its key by a prefix of the public key; a contract key is never satisfied by a signature.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { LedgerKey, SimKey } from '../ledger/ledger.ts';
import { numOf } from './entity-ids.ts';

type Pb = Record<string, unknown>;

const bytesOf = (value: unknown): Uint8Array | undefined =>
  value instanceof Uint8Array && value.length > 0 ? new Uint8Array(value) : undefined;

/**
 * The ledger key of a decoded protobuf Key; undefined for a key the network cannot use here (RSA, ECDSA P-384, an
 * ed25519 key that is not 32 bytes, an ECDSA key that is not a compressed point, an empty Key).
 */
export function keyFromPb(pb: unknown): LedgerKey | undefined {
  if (!pb || typeof pb !== 'object') return undefined;
  const key = pb as Pb;
  const ed = bytesOf(key.ed25519);
  if (ed) return ed.length === 32 ? { kind: 'ed25519', publicKey: ed } : undefined;
  const ecdsa = bytesOf(key.ECDSA_secp256k1);
  if (ecdsa) {
    if (ecdsa.length !== 33) return undefined;
    try {
      secp256k1.Point.fromBytes(ecdsa);
    } catch {
      return undefined;
    }
    const point = secp256k1.Point.fromBytes(ecdsa).toBytes(false);
    return { kind: 'secp256k1', publicKey: ecdsa, evmAddress: keccak_256(point.subarray(1)).subarray(12) };
  }
  if (key.contractID) return { kind: 'contract', contract: numOf(key.contractID, 'contractNum') };
  if (key.delegatable_contract_id)
    return { kind: 'delegatableContract', contract: numOf(key.delegatable_contract_id, 'contractNum') };
  const list = (key.keyList ?? (key.thresholdKey as Pb | undefined)?.keys) as Pb | undefined;
  if (list) {
    const keys = ((list.keys as unknown[] | undefined) ?? []).map(keyFromPb);
    if (keys.some((k) => k === undefined)) return undefined;
    const members = keys as LedgerKey[];
    if (!key.thresholdKey) return { kind: 'list', keys: members };
    const threshold = Number((key.thresholdKey as Pb).threshold ?? 0);
    if (threshold < 1 || threshold > members.length) return undefined;
    return { kind: 'list', keys: members, threshold };
  }
  return undefined;
}

export interface SignaturePair {
  readonly prefix: Uint8Array;
  readonly ed25519?: Uint8Array;
  readonly ecdsa?: Uint8Array;
}

export function signaturePairs(sigMap: unknown): SignaturePair[] {
  const pairs = ((sigMap as Pb | undefined)?.sigPair as Pb[] | undefined) ?? [];
  return pairs.map((pair) => ({
    prefix: bytesOf(pair.pubKeyPrefix) ?? new Uint8Array(),
    ...(bytesOf(pair.ed25519) ? { ed25519: bytesOf(pair.ed25519) } : {}),
    ...(bytesOf(pair.ECDSA_secp256k1) ? { ecdsa: bytesOf(pair.ECDSA_secp256k1) } : {}),
  }));
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const startsWith = (bytes: Uint8Array, prefix: Uint8Array) =>
  prefix.length <= bytes.length && prefix.every((byte, i) => bytes[i] === byte);

/** The signatures of one signed body: which keys they satisfy, each verification done once. */
export class Signatures {
  private readonly verified = new Map<string, boolean>();
  private keccak: Uint8Array | undefined;

  readonly bodyBytes: Uint8Array;
  readonly pairs: readonly SignaturePair[];
  /** Public keys (hex) that signed elsewhere and count as present (a schedule's signatories). */
  private readonly alsoSigned: ReadonlySet<string>;

  constructor(bodyBytes: Uint8Array, pairs: readonly SignaturePair[], alsoSigned: ReadonlySet<string> = new Set()) {
    this.bodyBytes = bodyBytes;
    this.pairs = pairs;
    this.alsoSigned = alsoSigned;
  }

  get count(): number {
    return this.pairs.length;
  }

  /** Whether the signatures satisfy `key` (a list: all of it; a threshold key: that many of its keys). */
  satisfies(key: LedgerKey): boolean {
    switch (key.kind) {
      case 'ed25519':
      case 'secp256k1':
        return this.signedBy(key);
      case 'contract':
      case 'delegatableContract':
        return false;
      case 'list': {
        if (key.keys.length === 0) return false;
        const needed = key.threshold ?? key.keys.length;
        let satisfied = 0;
        for (const member of key.keys) if (this.satisfies(member) && ++satisfied >= needed) return true;
        return false;
      }
    }
  }

  /** Every single key of the map whose signature verifies (what a ScheduleSign adds to a schedule). */
  verifiedKeys(candidates: readonly SimKey[]): SimKey[] {
    return candidates.filter((key) => this.signedBy(key));
  }

  signedBy(key: SimKey): boolean {
    const id = hex(key.publicKey);
    if (this.alsoSigned.has(id)) return true;
    const known = this.verified.get(id);
    if (known !== undefined) return known;
    const ok = this.pairs.some((pair) => startsWith(key.publicKey, pair.prefix) && this.verify(key, pair));
    this.verified.set(id, ok);
    return ok;
  }

  private verify(key: SimKey, pair: SignaturePair): boolean {
    try {
      if (key.kind === 'ed25519')
        return pair.ed25519 ? ed25519.verify(pair.ed25519, this.bodyBytes, key.publicKey) : false;
      if (!pair.ecdsa) return false;
      this.keccak ??= keccak_256(this.bodyBytes);
      return secp256k1.verify(pair.ecdsa, this.keccak, key.publicKey, { prehash: false, lowS: false });
    } catch {
      return false;
    }
  }

  /** Keys named by full-length prefixes of the map: the keys a signer put there, to be checked with `signedBy`. */
  namedKeys(): SimKey[] {
    const out: SimKey[] = [];
    for (const pair of this.pairs) {
      if (pair.ed25519 && pair.prefix.length === 32) out.push({ kind: 'ed25519', publicKey: pair.prefix });
      if (pair.ecdsa && pair.prefix.length === 33) {
        const key = keyFromPb({ ECDSA_secp256k1: pair.prefix });
        if (key?.kind === 'secp256k1') out.push(key);
      }
    }
    return out;
  }
}
