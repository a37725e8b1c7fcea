import { ApiError } from '../errors.ts';
import type { ParamParser } from './filters.ts';

/**
 * Entity ids as the reference reads and writes them. The encoded form is `shard (10 bits) | realm (16 bits) |
 * num (38 bits)` in a signed 64-bit integer, so shard 512 and up give negative encodings.
 *
 * Text from clients is read like the reference's `EntityId.parseString`: `shard.realm.num`, `realm.num` and
 * `num` take the configured shard and realm for missing parts, so a bare number is always a `num` (never an
 * encoded id: `274877906944` is refused as num overflow). A 40-hex EVM address (optionally `0x`-prefixed, or
 * prefixed by the configured `shard.realm.`) is a num alias when its first 12 bytes are zero and the rest fits
 * in 38 bits; otherwise it is an opaque address that the route resolves through the database.
 */

export const MAX_SHARD = 2n ** 10n - 1n;
export const MAX_REALM = 2n ** 16n - 1n;
export const MAX_NUM = 2n ** 38n - 1n;
const NUM_BITS = 38n;
const SHARD_SHIFT = 54n;
const MIN_ENCODED = -(2n ** 63n);
const MAX_ENCODED = 2n ** 63n - 1n;

/**
 * Which EVM address forms a parameter takes: `any` (plain, `0x`-prefixed or `shard.realm.`-prefixed),
 * `no-shard-realm` (plain or `0x`), `optional-shard-realm` (plain or `shard.realm.`), `num-alias` (`any`, but
 * only long-zero addresses).
 */
export type EvmAddressType = 'any' | 'no-shard-realm' | 'optional-shard-realm' | 'num-alias';

export interface EntityIdParts {
  shard: bigint;
  realm: bigint;
  num: bigint;
}

export type ParsedEntityId =
  | ({ kind: 'num'; encoded: bigint } & EntityIdParts)
  /** `address` is the 40 hex digits as given, without `0x`. */
  | { kind: 'evm-address'; shard: bigint; realm: bigint; address: string };

export interface EntityIdOptions {
  /** `common.shard` / `common.realm`: the parts a shorter id leaves out (default 0). */
  shard?: bigint | number;
  realm?: bigint | number;
  allowEvmAddress?: boolean;
  evmAddressType?: EvmAddressType;
  /** Report failures as `Invalid parameter: <paramName>` instead of `Invalid entity ID "<id>"`. */
  paramName?: string;
}

const ENTITY_ID = /^(\d{1,4}\.)?\d{1,5}\.\d{1,12}$/;
const ENCODED_ID = /^-?\d{1,19}$/;
const EVM_ADDRESS = /^(0x)?[A-Fa-f0-9]{40}$/;
const EVM_ADDRESS_SHARD_REALM = /^(\d{1,4}\.)?(\d{1,5}\.)?[A-Fa-f0-9]{40}$/;
const LONG_ZERO_PREFIX = '0'.repeat(24);

const stripHexPrefix = (text: string): string => (text.startsWith('0x') ? text.slice(2) : text);

/** The 40 hex digits after any prefix, split into the 12-byte prefix and the 8-byte number. */
function splitEvmAddress(text: string): { prefix: string; num: bigint } {
  const hex = stripHexPrefix(text).split('.').pop() ?? '';
  return { prefix: hex.slice(0, 24), num: BigInt(`0x${hex.slice(24, 40)}`) };
}

/** An EVM address that is not a long-zero alias of an entity num. */
const isOpaqueEvmAddress = (text: string): boolean => {
  if (!isEvmAddressText(text)) return false;
  const { prefix, num } = splitEvmAddress(text);
  return prefix !== LONG_ZERO_PREFIX || num > MAX_NUM;
};

export function isEvmAddressText(text: string, type: EvmAddressType = 'any'): boolean {
  switch (type) {
    case 'any':
      return EVM_ADDRESS.test(text) || EVM_ADDRESS_SHARD_REALM.test(text);
    case 'no-shard-realm':
      return EVM_ADDRESS.test(text);
    case 'optional-shard-realm':
      return EVM_ADDRESS_SHARD_REALM.test(text);
    case 'num-alias':
      return (EVM_ADDRESS.test(text) || EVM_ADDRESS_SHARD_REALM.test(text)) && !isOpaqueEvmAddress(text);
  }
}

/** The reference's syntactic check (`isValidEntityId`); ranges are checked only when parsing. */
export function isEntityIdText(text: string, options: EntityIdOptions = {}): boolean {
  if (ENTITY_ID.test(text) || ENCODED_ID.test(text)) return true;
  return (options.allowEvmAddress ?? true) && isEvmAddressText(text, options.evmAddressType);
}

/** The id the reference actually parses: the text with the configured shard and realm filled in. */
function completedText(text: string, shard: bigint, realm: bigint): string {
  const stripped = stripHexPrefix(text);
  const pieces = stripped.split('.');
  if (isOpaqueEvmAddress(stripped)) return stripped;
  return [...[String(shard), String(realm)].slice(0, 3 - pieces.length), ...pieces].join('.');
}

function parseCompleted(
  id: string,
  shard: bigint,
  realm: bigint,
  options: EntityIdOptions,
): ParsedEntityId | undefined {
  if (!isEntityIdText(id, options)) return undefined;
  const parts = stripHexPrefix(id).split('.');
  const last = parts.pop() ?? '';
  const idShard = parts.length === 2 ? BigInt(parts.shift() ?? '') : shard;
  const idRealm = parts.length === 1 ? BigInt(parts.shift() ?? '') : realm;
  if (last.length === 40 || last.length === 42) {
    if (idShard !== shard || idRealm !== realm) return undefined;
    const { prefix, num } = splitEvmAddress(last);
    if (prefix !== LONG_ZERO_PREFIX || num > MAX_NUM) {
      return { kind: 'evm-address', shard: idShard, realm: idRealm, address: last };
    }
    return numId({ shard: idShard, realm: idRealm, num });
  }
  const num = BigInt(last);
  if (num > MAX_NUM || idRealm > MAX_REALM || idShard > MAX_SHARD) return undefined;
  return numId({ shard: idShard, realm: idRealm, num });
}

const numId = (parts: EntityIdParts): ParsedEntityId => ({ kind: 'num', ...parts, encoded: encodeEntityId(parts) });

/** Parses client text (path or query value); `undefined` when the reference would refuse it. */
export function parseEntityId(text: string, options: EntityIdOptions = {}): ParsedEntityId | undefined {
  const shard = BigInt(options.shard ?? 0);
  const realm = BigInt(options.realm ?? 0);
  return parseCompleted(completedText(text, shard, realm), shard, realm, options);
}

/** Like `parseEntityId`, but throws the reference's 400 for text it refuses. */
export function requireEntityId(text: string, options: EntityIdOptions = {}): ParsedEntityId {
  const parsed = parseEntityId(text, options);
  if (parsed) return parsed;
  if (options.paramName) throw ApiError.invalidParams(options.paramName);
  const completed = completedText(text, BigInt(options.shard ?? 0), BigInt(options.realm ?? 0));
  throw ApiError.badRequest(`Invalid entity ID "${completed}"`);
}

/**
 * A query parameter holding an entity id (`account.id`, `token.id`, `spender.id`, ...): validated by syntax
 * (else `Invalid parameter: <key>`), then parsed; a value out of range fails with `Invalid entity ID "..."`.
 */
export const entityIdParam =
  (options: EntityIdOptions = {}): ParamParser<ParsedEntityId> =>
  (value) =>
    isEntityIdText(value, options) ? requireEntityId(value, options) : undefined;

export function encodeEntityId({ shard, realm, num }: EntityIdParts): bigint {
  return BigInt.asIntN(64, (shard << SHARD_SHIFT) | (realm << NUM_BITS) | num);
}

/** Splits an encoded id (as stored in the database); `undefined` outside the signed 64-bit range. */
export function decodeEntityId(encoded: bigint): EntityIdParts | undefined {
  if (encoded < MIN_ENCODED || encoded > MAX_ENCODED) return undefined;
  const shardRealm = encoded >> NUM_BITS;
  return { shard: BigInt.asUintN(10, shardRealm >> 16n), realm: shardRealm & MAX_REALM, num: encoded & MAX_NUM };
}

export const entityIdToString = ({ shard, realm, num }: EntityIdParts): string => `${shard}.${realm}.${num}`;

/**
 * An encoded id from the database as the reference writes it in responses: `shard.realm.num`, or `null` for a
 * missing id and, like the reference, for any id whose num is 0.
 */
export function formatEntityId(encoded: bigint | number | null | undefined): string | null {
  if (encoded === null || encoded === undefined) return null;
  const parts = decodeEntityId(BigInt(encoded));
  if (!parts) throw new RangeError(`Encoded entity id out of range: ${encoded}`);
  return parts.num === 0n ? null : entityIdToString(parts);
}

/** The encoded id of an entity id text in its numeric form (a next link's bound); undefined for any other form. */
export function encodedEntityIdBound(text: string, options: EntityIdOptions = {}): bigint | undefined {
  const id = parseEntityId(text, options);
  return id?.kind === 'num' ? id.encoded : undefined;
}

/** The long-zero EVM address of an entity num (`0x` + 40 hex digits); the reference leaves shard and realm out. */
export const longZeroEvmAddress = (num: bigint): string => `0x${num.toString(16).padStart(40, '0')}`;
