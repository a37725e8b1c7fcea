/**
 * Account keys of the simulated network: real ed25519 and secp256k1 public keys (valid curve points, so ECDSA
 * accounts get the EVM address a wallet would compute, and sign their Ethereum transactions with the private key),
 * and placeholder signatures on HAPI transactions: nothing downstream verifies
 * transaction signatures, and signing every transaction would cost more than everything else together.
 *
 * Keys come from consecutive private scalars k0, k0+1, … from a seeded k0: the next public key is one point
 * addition away, about fifty times cheaper than a fresh scalar multiplication.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { contractPb } from '../ledger/ids.ts';
import type { LedgerKey, SimKey } from '../ledger/ledger.ts';
import type { Random } from '../random.ts';

type SecpPoint = ReturnType<typeof secp256k1.Point.BASE.multiply>;
type EdPoint = ReturnType<typeof ed25519.Point.BASE.multiply>;

export class KeyFactory {
  private secpScalar: bigint;
  private secp: SecpPoint;
  private ed: EdPoint;

  constructor(random: Random) {
    const scalar = () => random.bigint(1n << 200n, 1n << 240n);
    this.secpScalar = scalar();
    this.secp = secp256k1.Point.BASE.multiply(this.secpScalar);
    this.ed = ed25519.Point.BASE.multiply(scalar());
  }

  next(kind: SimKey['kind']): SimKey {
    if (kind === 'ed25519') {
      this.ed = this.ed.add(ed25519.Point.BASE);
      return { kind, publicKey: this.ed.toBytes() };
    }
    this.secp = this.secp.add(secp256k1.Point.BASE);
    this.secpScalar += 1n;
    const privateKey = new Uint8Array(Buffer.from(this.secpScalar.toString(16).padStart(64, '0'), 'hex'));
    const point = this.secp.toBytes(false);
    const compressed = new Uint8Array(33);
    compressed[0] = ((point[64] ?? 0) & 1) === 0 ? 2 : 3;
    compressed.set(point.subarray(1, 33), 1);
    // The EVM address: the last 20 bytes of keccak-256 over the uncompressed point without its 0x04 prefix.
    return { kind, publicKey: compressed, evmAddress: keccak_256(point.subarray(1)).subarray(12), privateKey };
  }
}

/** The protobuf Key of a ledger key. */
export function keyPb(key: LedgerKey): Record<string, unknown> {
  switch (key.kind) {
    case 'ed25519':
      return { ed25519: key.publicKey };
    case 'secp256k1':
      return { ECDSA_secp256k1: key.publicKey };
    case 'contract':
      return { contractID: contractPb(key.contract) };
    case 'delegatableContract':
      return { delegatable_contract_id: contractPb(key.contract) };
    case 'list': {
      const keys = { keys: key.keys.map(keyPb) };
      return key.threshold === undefined ? { keyList: keys } : { thresholdKey: { threshold: key.threshold, keys } };
    }
  }
}

/** The single signing key of a ledger key, when it is one (what signs an account's Ethereum transactions). */
export function singleKey(key: LedgerKey | undefined): SimKey | undefined {
  return key && (key.kind === 'ed25519' || key.kind === 'secp256k1') ? key : undefined;
}

/** Every ed25519 and ECDSA key inside a ledger key, depth first. */
export function leafKeys(key: LedgerKey): SimKey[] {
  if (key.kind === 'list') return key.keys.flatMap(leafKeys);
  return key.kind === 'ed25519' || key.kind === 'secp256k1' ? [key] : [];
}

/** One SignaturePair for `key`: the full public key as prefix and 64 pseudo-random signature bytes. */
export function signaturePair(random: Random, key: SimKey): Record<string, Uint8Array> {
  const signature = random.bytes(64);
  return key.kind === 'ed25519'
    ? { pubKeyPrefix: key.publicKey, ed25519: signature }
    : { pubKeyPrefix: key.publicKey, ECDSA_secp256k1: signature };
}
