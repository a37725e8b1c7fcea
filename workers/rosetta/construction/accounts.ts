/**
 * Accounts as the Construction API names them (rosetta/app/domain/types/account_id.go): `shard.realm.num`, or `0x`
 * and a key alias in the network's shard and realm. In a transaction an account is an AccountID message
 * (`ToSdkAccountId`); read back from one (`NewAccountIdFromSdkAccountId`), a key alias is named by its key, any other
 * alias (an EVM address) as `shard.realm.0`. Also the Go SDK's `AccountIDFromString`, which reads the node account
 * and the payer the metadata names.
 */
import { bytesFromHex } from '../../../db/bytea.ts';
import { hex } from '../../format/values.ts';
import { MAX_NUM, MAX_REALM, MAX_SHARD } from '../../params/entity-id.ts';
import { aliasOf, type RosettaAccount } from '../domain/account-id.ts';
import { entityIdText } from '../domain/entity-id.ts';
import { goHexDecode } from '../go-json/hex.ts';
import { KEY } from './hapi/messages.ts';
import type { SdkAccountId } from './hapi/transaction-bytes.ts';
import { decodeMessage, WireError } from './hapi/wire.ts';
import {
  ecdsaKeyFromBytes,
  ed25519KeyFromBytes,
  type PublicKey,
  publicKeyDerHex,
  publicKeyFromString,
} from './keys.ts';

/** `AccountId.String()`: the alias as given, or the id. */
export function accountText(account: RosettaAccount): string {
  return account.kind === 'alias' ? `0x${hex(account.alias)}` : entityIdText(account.id);
}

/** `ToSdkAccountId`: an alias goes into a transaction as the Key of its public key. */
export function toSdkAccountId(account: RosettaAccount): SdkAccountId {
  if (account.kind === 'id') return { shard: account.id.shard, realm: account.id.realm, num: account.id.num };
  return { shard: account.shard, realm: account.realm, num: 0n, alias: aliasOf(account.key) };
}

/** The alias key of an AccountID's alias bytes, as `_AccountIDFromProtobuf` reads one (else an EVM address). */
function aliasPublicKey(alias: Uint8Array): PublicKey | undefined {
  let key: Record<string, unknown>;
  try {
    key = decodeMessage(alias, KEY);
  } catch (error) {
    // The SDK ignores the parse error and reads what it got before it: at most a key that was complete.
    if (!(error instanceof WireError)) throw error;
    return undefined;
  }
  if (key.ed25519 !== undefined) return ed25519KeyFromBytes(key.ed25519 as Uint8Array);
  if (key.ECDSA_secp256k1 !== undefined) return ecdsaKeyFromBytes(key.ECDSA_secp256k1 as Uint8Array);
  return undefined;
}

const INT64_MAX = 2n ** 63n - 1n;

/**
 * `NewAccountIdFromSdkAccountId` of an AccountID read from a transaction; undefined for one the reference refuses
 * (shard, realm or number beyond what an entity id holds).
 */
export function fromSdkAccountId(account: SdkAccountId): RosettaAccount | undefined {
  if (account.shard > INT64_MAX || account.realm > INT64_MAX) return undefined;
  const key = account.alias !== undefined ? aliasPublicKey(account.alias) : undefined;
  if (key) {
    const aliasKey = { curve: key.curve, publicKey: key.raw };
    return { kind: 'alias', alias: aliasOf(aliasKey), key: aliasKey, shard: account.shard, realm: account.realm };
  }
  const num = account.alias !== undefined ? 0n : account.num;
  if (num > INT64_MAX || account.shard > MAX_SHARD || account.realm > MAX_REALM || num > MAX_NUM) return undefined;
  const encoded = (account.shard << 54n) | (account.realm << 38n) | num;
  return { kind: 'id', id: { shard: account.shard, realm: account.realm, num, encoded } };
}

/** Go's `strconv.Atoi` on a 64-bit platform. */
function atoi(text: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(text)) return undefined;
  const value = BigInt(text);
  return value > INT64_MAX || value < -INT64_MAX - 1n ? undefined : value;
}

const isHex = (text: string) => text.length % 2 === 0 && /^[0-9a-fA-F]*$/.test(text);

/** A `shard.realm.<40 hex>` alias: a serialized public key when it reads as one, else an EVM address. */
function hexAlias(bytes: Uint8Array): Uint8Array {
  const key = aliasPublicKey(bytes);
  return key ? aliasOf({ curve: key.curve, publicKey: key.raw }) : bytes;
}

/**
 * `AccountIDFromString`: `shard.realm.num` (a `-checksum` ignored), an EVM address (`0x` optional), or
 * `shard.realm.` and an alias; undefined where the SDK fails.
 */
export function sdkAccountIdFromString(text: string): SdkAccountId | undefined {
  let s = text;
  if (s.length >= 2 && s[0] === '0' && (s[1] === 'x' || s[1] === 'X')) {
    s = s.slice(2);
    if (s.length % 2 === 1) s = `0${s}`;
  }
  if (isHex(s) && s.length === 40) return { shard: 0n, realm: 0n, num: 0n, alias: bytesFromHex(s) };
  const dash = s.indexOf('-');
  if (dash >= 0) s = s.slice(0, dash);
  const first = s.indexOf('.');
  const second = first < 0 ? -1 : s.indexOf('.', first + 1);
  if (second < 0) return undefined;
  const shard = atoi(s.slice(0, first));
  const realm = atoi(s.slice(first + 1, second));
  if (shard === undefined || realm === undefined) return undefined;
  const ids = { shard: BigInt.asUintN(64, shard), realm: BigInt.asUintN(64, realm) };
  const rest = s.slice(second + 1);
  if (rest.length < 20) {
    const num = atoi(rest);
    return num === undefined ? undefined : { ...ids, num: BigInt.asUintN(64, num) };
  }
  if (rest.length === 40) {
    const bytes = goHexDecode(rest);
    return typeof bytes === 'string' ? undefined : { ...ids, num: 0n, alias: hexAlias(bytes) };
  }
  const key = publicKeyFromString(rest);
  return key ? { ...ids, num: 0n, alias: aliasOf({ curve: key.curve, publicKey: key.raw }) } : undefined;
}

/** `AccountID.String()`, as the SDK names a node or a payer in its errors: an alias by its key's DER or its hex. */
export function sdkAccountText(account: SdkAccountId): string {
  if (account.alias === undefined) return `${account.shard}.${account.realm}.${account.num}`;
  const key = aliasPublicKey(account.alias);
  return `${account.shard}.${account.realm}.${key ? publicKeyDerHex(key) : hex(account.alias)}`;
}
