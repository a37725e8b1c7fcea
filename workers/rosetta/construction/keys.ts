/**
 * Public keys as the Go SDK the reference builds with reads and prints them (hiero-sdk-go v2.78.1, crypto.go,
 * ed25519_public_key.go, ecdsa_public_key.go): `PublicKeyFromBytes` takes an ED25519 key raw (32 bytes, any bytes)
 * or in DER (44), else an ECDSA secp256k1 key compressed (33, a point of the curve), in the legacy DER form (47) or
 * in DER (56); `String()` is the DER form in hex; a key goes into a transaction as a protobuf Key of its raw form.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesFromHex } from '../../../db/bytea.ts';
import { hex } from '../../format/values.ts';
import type { CurveType } from '../domain/account-id.ts';
import { goHexDecode } from '../go-json/hex.ts';

export interface PublicKey {
  readonly curve: CurveType;
  /** ED25519: the 32 key bytes; secp256k1: the compressed point (33 bytes). */
  readonly raw: Uint8Array;
}

const ED25519_DER_PREFIX = '302a300506032b6570032100';
const ECDSA_DER_PREFIX = '3036301006072a8648ce3d020106052b8104000a032200';
const ECDSA_LEGACY_DER_PREFIX = '302d300706052b8104000a032200';

/** A compressed secp256k1 point, when `bytes` is one. */
function secp256k1Point(bytes: Uint8Array): Uint8Array | undefined {
  if (bytes.length !== 33 || (bytes[0] !== 2 && bytes[0] !== 3)) return undefined;
  try {
    return secp256k1.Point.fromBytes(bytes).toBytes(true);
  } catch {
    return undefined;
  }
}

/** `_Ed25519PublicKeyFromBytes`: 32 raw bytes or their DER form. */
export function ed25519KeyFromBytes(bytes: Uint8Array): PublicKey | undefined {
  if (bytes.length === 32) return { curve: 'edwards25519', raw: bytes };
  if (bytes.length === 44 && hex(bytes.subarray(0, 12)) === ED25519_DER_PREFIX) {
    return { curve: 'edwards25519', raw: bytes.subarray(12) };
  }
  return undefined;
}

/** `_ECDSAPublicKeyFromBytes`: a compressed point, its legacy DER form or its DER form. */
export function ecdsaKeyFromBytes(bytes: Uint8Array): PublicKey | undefined {
  let point: Uint8Array | undefined;
  if (bytes.length === 33) point = secp256k1Point(bytes);
  else if (bytes.length === 47) {
    // The SDK removes the legacy prefix wherever its hex appears in the key's hex, then wants 33 bytes.
    const rest = hex(bytes).replaceAll(ECDSA_LEGACY_DER_PREFIX, '');
    if (rest.length === 66) point = secp256k1Point(bytesFromHex(rest));
  } else if (bytes.length === 56 && hex(bytes.subarray(0, 23)) === ECDSA_DER_PREFIX) {
    point = secp256k1Point(bytes.subarray(23));
  }
  return point ? { curve: 'secp256k1', raw: point } : undefined;
}

/** `PublicKeyFromBytes`: ED25519 first, then ECDSA secp256k1. */
export function publicKeyFromBytes(bytes: Uint8Array): PublicKey | undefined {
  return ed25519KeyFromBytes(bytes) ?? ecdsaKeyFromBytes(bytes);
}

/** `PublicKeyFromString`: the hex of one of the forms `publicKeyFromBytes` takes (no `0x`). */
export function publicKeyFromString(text: string): PublicKey | undefined {
  const bytes = goHexDecode(text);
  return bytes instanceof Uint8Array ? publicKeyFromBytes(bytes) : undefined;
}

/** `PublicKey.String()`: the key's DER form in hex. */
export function publicKeyDerHex(key: PublicKey): string {
  return (key.curve === 'edwards25519' ? ED25519_DER_PREFIX : ECDSA_DER_PREFIX) + hex(key.raw);
}

/** `PublicKey.Bytes()`: raw for ED25519, DER for ECDSA (what the reference hands to `ed25519.Verify`). */
export function publicKeyBytes(key: PublicKey): Uint8Array {
  return key.curve === 'edwards25519' ? key.raw : bytesFromHex(publicKeyDerHex(key));
}
