import { ApiError } from '../errors.ts';
import { decodeEntityId, type EntityIdOptions, entityIdToString, requireEntityId } from './entity-id.ts';
import { MAX_LONG } from './scalars.ts';
import { formatTimestamp } from './timestamp.ts';

export const INVALID_TRANSACTION_ID_MESSAGE =
  'Invalid Transaction id. Please use "shard.realm.num-sss-nnn" format where sss are seconds and nnn are nanoseconds';

export interface TransactionId {
  /** The payer's encoded entity id. */
  payer: bigint;
  validStartNs: bigint;
}

export type TransactionIdOrHash = ({ kind: 'id' } & TransactionId) | { kind: 'hash'; hash: Uint8Array };

const TRANSACTION_ID = /^(\d+)\.(\d+)\.(\d+)-(\d{1,19})-(\d{1,9})$/;
// 64 characters of base64 or base64url (a 48-byte hash without padding), or 96 hex digits
const TRANSACTION_HASH = /^([\dA-Za-z+\-/_]{64}|(0x)?[\dA-Fa-f]{96})$/;
const ETH_HASH = /^(0x)?([0-9A-Fa-f]{64})$/;

const hexToBytes = (hex: string): Uint8Array =>
  Uint8Array.from(hex.match(/../g) ?? [], (byte) => Number.parseInt(byte, 16));

const base64ToBytes = (text: string): Uint8Array =>
  Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0));

/**
 * `shard.realm.num-seconds-nanos` only (no `@` form, no whitespace). Nanos are 1 to 9 digits read as a number
 * (`-1` is one nanosecond); seconds up to 2^63-1, so the valid start may exceed a signed 64-bit value.
 * An out-of-range payer fails with `Invalid entity ID "<payer>"`, any other form with the reference's
 * transaction id message.
 */
export function parseTransactionId(text: string, system: Pick<EntityIdOptions, 'shard' | 'realm'> = {}): TransactionId {
  const match = TRANSACTION_ID.exec(text);
  if (!match) throw ApiError.badRequest(INVALID_TRANSACTION_ID_MESSAGE);
  const [, shard, realm, num, seconds = '', nanos = ''] = match;
  const payer = requireEntityId(`${shard}.${realm}.${num}`, system);
  // Forty digits read as a non-alias EVM address: the reference fails on it with a 500, a malformed id here.
  if (payer.kind !== 'num') throw ApiError.badRequest(INVALID_TRANSACTION_ID_MESSAGE);
  const validStartSeconds = BigInt(seconds);
  if (validStartSeconds > MAX_LONG) throw ApiError.badRequest(INVALID_TRANSACTION_ID_MESSAGE);
  return { payer: payer.encoded, validStartNs: validStartSeconds * 1_000_000_000n + BigInt(nanos) };
}

/**
 * A 48-byte transaction hash: 64 characters of base64 / base64url (both alphabets, no padding) or 96 hex digits
 * with an optional `0x`. Note a 64-digit hex string is read as base64, as the reference does.
 */
export function parseTransactionHash(text: string): Uint8Array | undefined {
  if (!TRANSACTION_HASH.test(text)) return undefined;
  if (text.length === 64) return base64ToBytes(text);
  return hexToBytes(text.length === 98 ? text.slice(2) : text);
}

/** The path parameter of `GET /api/v1/transactions/{transactionIdOrHash}`: hash forms first, then the id. */
export function parseTransactionIdOrHash(
  text: string,
  system: Pick<EntityIdOptions, 'shard' | 'realm'> = {},
): TransactionIdOrHash {
  const hash = parseTransactionHash(text);
  return hash ? { kind: 'hash', hash } : { kind: 'id', ...parseTransactionId(text, system) };
}

/** A 32-byte Ethereum transaction hash: 64 hex digits with an optional `0x` (contract results routes). */
export function parseEthHash(text: string): Uint8Array | undefined {
  const match = ETH_HASH.exec(text);
  return match?.[2] ? hexToBytes(match[2]) : undefined;
}

/** `0.0.2-1234567890-000000001`, as the reference writes `transaction_id`. */
export function formatTransactionId(payer: bigint, validStartNs: bigint): string {
  const parts = decodeEntityId(payer);
  if (!parts) throw new RangeError(`Encoded entity id out of range: ${payer}`);
  return `${entityIdToString(parts)}-${formatTimestamp(validStartNs, '-')}`;
}
