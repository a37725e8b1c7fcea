import { base64OfBytes } from '../../db/bytea.ts';
import { formatEntityId } from '../params/entity-id.ts';

/**
 * Wire formats of stored values, as the reference writes them. Inputs are what the driver returns: int8 and
 * numeric columns as decimal strings, bytea as Uint8Array (Buffer in Node), timestamps as nanoseconds.
 */

/** An entity id as stored values come: int8 text from a column, a JSON number or bigint from a json column. */
export type StoredId = bigint | string | number | null | undefined;

/**
 * An encoded entity id as a stored value (int8 as text, a JSON number, or bigint) in the API's form: `shard.realm.num`,
 * or null for a missing id and for num 0, as the reference writes them (`formatEntityId`). Every formatter writes
 * ids through here.
 */
export function entityId(encoded: StoredId): string | null {
  if (encoded === null || encoded === undefined) return null;
  // Shard and realm 0 (an encoded id below 2^38, the usual case) read off the text, without bigint arithmetic.
  if (typeof encoded === 'string' && SMALL_POSITIVE_INTEGER.test(encoded) && Number(encoded) < NUM_LIMIT) {
    return `0.0.${encoded}`;
  }
  return formatEntityId(BigInt(encoded));
}

/** 2^38: an encoded id below it has shard 0, realm 0 and the id itself as num. */
const NUM_LIMIT = 2 ** 38;
const SMALL_POSITIVE_INTEGER = /^[1-9]\d{0,11}$/;

/** `seconds.nanoseconds` with nine digits of nanoseconds; null stays null. */
export function timestampString(ns: bigint | string | null | undefined): string | null {
  if (ns === null || ns === undefined) return null;
  const text = ns.toString().padStart(10, '0');
  return `${text.slice(0, -9)}.${text.slice(-9)}`;
}

/** `payer-seconds-nanoseconds`, the transaction id form of the API. */
export function transactionIdString(payer: bigint | string, validStartNs: bigint | string): string {
  const text = validStartNs.toString().padStart(10, '0');
  return `${entityId(payer)}-${text.slice(0, -9)}-${text.slice(-9)}`;
}

export { hexOfBytes as hex } from '../../db/bytea.ts';

export function base64(bytes: Uint8Array | null | undefined): string | null {
  return bytes === null || bytes === undefined ? null : base64OfBytes(bytes);
}

/** An int8 column as a JSON integer literal (kept exact beyond 2^53); null stays null. */
export function int64(value: string | bigint | number | null | undefined): bigint | null {
  return value === null || value === undefined ? null : BigInt(value);
}
