/**
 * Wire formats of stored values, as the reference writes them. Inputs are what the driver returns: int8 and
 * numeric columns as decimal strings, bytea as Uint8Array (Buffer in Node), timestamps as nanoseconds.
 */

const NUM_BITS = 38n;
const REALM_BITS = 16n;
const NUM_MASK = (1n << NUM_BITS) - 1n;
const REALM_MASK = (1n << REALM_BITS) - 1n;

/** `shard.realm.num` of an encoded entity id (shard << 54 | realm << 38 | num). */
export function entityIdString(encoded: bigint | string | number): string {
  const id = BigInt(encoded);
  return `${id >> (NUM_BITS + REALM_BITS)}.${(id >> NUM_BITS) & REALM_MASK}.${id & NUM_MASK}`;
}

export function nullableEntityIdString(encoded: bigint | string | number | null | undefined): string | null {
  return encoded === null || encoded === undefined ? null : entityIdString(encoded);
}

/** `seconds.nanoseconds` with nine digits of nanoseconds; null stays null. */
export function timestampString(ns: bigint | string | null | undefined): string | null {
  if (ns === null || ns === undefined) return null;
  const text = ns.toString().padStart(10, '0');
  return `${text.slice(0, -9)}.${text.slice(-9)}`;
}

/** `payer-seconds-nanoseconds`, the transaction id form of the API. */
export function transactionIdString(payer: bigint | string, validStartNs: bigint | string): string {
  const text = validStartNs.toString().padStart(10, '0');
  return `${entityIdString(payer)}-${text.slice(0, -9)}-${text.slice(-9)}`;
}

export function base64(bytes: Uint8Array | null | undefined): string | null {
  if (bytes === null || bytes === undefined) return null;
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function hex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += HEX[byte];
  return out;
}

/** An int8 column as a JSON integer literal (kept exact beyond 2^53); null stays null. */
export function int64(value: string | bigint | number | null | undefined): bigint | null {
  return value === null || value === undefined ? null : BigInt(value);
}
