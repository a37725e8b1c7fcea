/** Reading serialized protobuf `Key` values, which the schema stores as bytes. */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { hapi } from '../../proto/hapi.ts';
import { toHex } from './hash.ts';

interface PlainKey {
  ed25519?: Uint8Array;
  RSA_3072?: Uint8Array;
  ECDSA_384?: Uint8Array;
  ECDSA_secp256k1?: Uint8Array;
  keyList?: { keys?: PlainKey[] };
  thresholdKey?: { keys?: { keys?: PlainKey[] } };
}

/** Depth 1 is the key itself, 2 the only member of its list; deeper keys are not searched (the importer's rule). */
function single(key: PlainKey | undefined, depth = 1): string | null {
  if (!key || depth > 2) return null;
  // A decoded message answers the empty default for the primitives it does not hold: take the one with bytes.
  const primitive = [key.ed25519, key.ECDSA_secp256k1, key.ECDSA_384, key.RSA_3072].find((b) => b && b.length > 0);
  if (primitive) return toHex(primitive);
  const nested = key.keyList?.keys ?? key.thresholdKey?.keys?.keys;
  return nested && nested.length === 1 ? single(nested[0], depth + 1) : null;
}

/**
 * The hex public key of a key that reduces to one primitive key (directly or as the only member of a key
 * list / threshold key), as `entity.public_key` stores it; null otherwise or when the bytes do not parse.
 */
export function publicKeyHex(keyBytes: Uint8Array | undefined): string | null {
  if (!keyBytes || keyBytes.length === 0) return null;
  try {
    const key = hapi().Key.decode(keyBytes) as unknown as PlainKey;
    return single(key);
  } catch {
    return null;
  }
}

const EVM_ADDRESS_BYTES = 20;
const COMPRESSED_SECP256K1_BYTES = 33;

/**
 * The EVM address an account alias stands for, as the importer derives it: a 20-byte alias is one; a `Key` holding
 * a compressed ECDSA secp256k1 public key gives the last 20 bytes of the Keccak-256 of the uncompressed point;
 * anything else none.
 */
export function aliasEvmAddress(alias: Uint8Array | undefined): Uint8Array | undefined {
  if (!alias) return undefined;
  if (alias.length === EVM_ADDRESS_BYTES) return alias;
  if (alias.length < COMPRESSED_SECP256K1_BYTES) return undefined;
  try {
    const key = hapi().Key.decode(alias) as unknown as PlainKey;
    const compressed = key.ECDSA_secp256k1;
    if (compressed?.length !== COMPRESSED_SECP256K1_BYTES) return undefined;
    const point = secp256k1.Point.fromBytes(compressed).toBytes(false);
    return keccak_256(point.subarray(1)).subarray(12);
  } catch {
    return undefined;
  }
}
