import type { ParamParser } from './filters.ts';

// 64 hex digits (ED25519), 66 (compressed ECDSA secp256k1) or 88 (an ED25519 key in its DER wrapping)
const PUBLIC_KEY = /^(0x)?([0-9a-fA-F]{64}|[0-9a-fA-F]{66}|[0-9a-fA-F]{88})$/;
// The DER SubjectPublicKeyInfo of an ED25519 key (OID 1.3.101.112): the raw key is its last 32 bytes.
const ED25519_DER = /^302a300506032b6570032100([0-9a-f]{64})$/;

/**
 * `account.publickey` (and `entity.publickey`): a public key in hex, under any operator. Returns the key as the
 * `entity.public_key` column stores it: lower case, without `0x`, an ED25519 key unwrapped from its DER form.
 */
export const publicKeyParam: ParamParser<string> = (value) => {
  if (!PUBLIC_KEY.test(value)) return undefined;
  const key = value.replace('0x', '').toLowerCase();
  return ED25519_DER.exec(key)?.[1] ?? key;
};
