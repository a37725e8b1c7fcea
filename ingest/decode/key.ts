/** Reading serialized protobuf `Key` values, which the schema stores as bytes. */
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

function single(key: PlainKey | undefined): string | null {
  if (!key) return null;
  const primitive = key.ed25519 ?? key.ECDSA_secp256k1 ?? key.ECDSA_384 ?? key.RSA_3072;
  if (primitive) return toHex(primitive);
  const nested = key.keyList?.keys ?? key.thresholdKey?.keys?.keys;
  return nested && nested.length === 1 ? single(nested[0]) : null;
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
