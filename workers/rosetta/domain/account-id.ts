/**
 * Rosetta account identifiers (rosetta/app/domain/types/account_id.go, public_key.go): an account is
 * `shard.realm.num`, or `0x` and the hex of its alias when it has a key alias (HIP-32: the serialized protobuf Key of
 * one ED25519 or ECDSA secp256k1 public key). An alias that is not such a key (an EVM address alias) is never shown:
 * the account is shown by its id.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { fields } from '../../format/protobuf-reader.ts';
import { hex } from '../../format/values.ts';
import { type AccountNum, entityIdText, parseEntityIdText } from './entity-id.ts';

export type CurveType = 'edwards25519' | 'secp256k1';

/** A public key that can be an account's alias. */
export interface AliasKey {
  readonly curve: CurveType;
  /** The raw key: 32 bytes (ED25519) or a compressed secp256k1 point, 33 bytes. */
  readonly publicKey: Uint8Array;
}

export type RosettaAccount =
  | { readonly kind: 'id'; readonly id: AccountNum }
  | {
      readonly kind: 'alias';
      readonly alias: Uint8Array;
      readonly key: AliasKey;
      readonly shard: bigint;
      readonly realm: bigint;
    };

/** Field numbers of HAPI's Key: the oneof's members, of which an alias may be only ed25519 or ECDSA_secp256k1. */
const KEY_ONEOF_FIELDS = new Set([1, 2, 3, 4, 5, 6, 7, 8]);
const ED25519_FIELD = 2;
const ECDSA_SECP256K1_FIELD = 7;

function isSecp256k1Point(bytes: Uint8Array): boolean {
  try {
    secp256k1.Point.fromBytes(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * The public key an alias holds (`NewPublicKeyFromAlias`): the protobuf Key is read as protobuf reads it (unknown
 * fields skipped, the last member of the oneof wins), and must be an ED25519 key of 32 bytes or a valid compressed
 * secp256k1 point.
 */
export function aliasKey(alias: Uint8Array): AliasKey | undefined {
  if (alias.length === 0) return undefined;
  let member: { number: number; bytes: Uint8Array } | undefined;
  try {
    for (const field of fields(alias)) {
      // Every member of the oneof is length-delimited; one sent with another wire type is an unknown field.
      if (KEY_ONEOF_FIELDS.has(field.number) && 'bytes' in field) member = { number: field.number, bytes: field.bytes };
    }
  } catch {
    return undefined;
  }
  if (!member) return undefined;
  const { bytes } = member;
  if (member.number === ED25519_FIELD && bytes.length === 32) return { curve: 'edwards25519', publicKey: bytes };
  if (member.number === ECDSA_SECP256K1_FIELD && bytes.length === 33 && isSecp256k1Point(bytes)) {
    return { curve: 'secp256k1', publicKey: bytes };
  }
  return undefined;
}

/** The alias of a public key (`PublicKey.ToAlias`): the protobuf Key holding it. */
export function aliasOf(key: AliasKey): Uint8Array {
  const field = key.curve === 'edwards25519' ? ED25519_FIELD : ECDSA_SECP256K1_FIELD;
  return Uint8Array.from([(field << 3) | 2, key.publicKey.length, ...key.publicKey]);
}

/**
 * An account address of a request (`NewAccountIdFromString`): with a `.`, an entity id (its shard and realm as given);
 * otherwise `0x` and the hex of a key alias, in the network's shard and realm. Undefined for anything else.
 */
export function parseAccountAddress(address: string, shard: bigint, realm: bigint): RosettaAccount | undefined {
  if (address.includes('.')) {
    const id = parseEntityIdText(address);
    return id ? { kind: 'id', id } : undefined;
  }
  if (!address.startsWith('0x')) return undefined;
  const digits = address.slice(2);
  if (digits.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(digits)) return undefined;
  const alias = bytesOfHex(digits);
  const key = aliasKey(alias);
  return key ? { kind: 'alias', alias, key, shard, realm } : undefined;
}

/** Bytes of an even number of hex digits. */
export const bytesOfHex = (digits: string): Uint8Array =>
  Uint8Array.from(digits.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));

/** How an operation or a balance names the account with this id and stored alias (`GetAccountAlias`). */
export function accountAddress(id: AccountNum, alias: Uint8Array | null | undefined): string {
  return alias && alias.length > 0 && aliasKey(alias) ? `0x${hex(alias)}` : entityIdText(id);
}
