import { customType } from 'drizzle-orm/pg-core';

/**
 * Column types drizzle has no builder for. The domains (`entity_id`, `nanos_timestamp`, `hbar_tinybars`) are
 * created by the first migration; the database reports domain columns with their base type's OID, so the
 * driver hands their values over as int8 text.
 */

const bigintDomain = (domain: string) =>
  customType<{ data: bigint; driverData: string | number }>({
    dataType: () => domain,
    fromDriver: (value) => BigInt(value),
    toDriver: (value) => value.toString(),
  });

/** An entity id: shard, realm and num packed into one 64-bit integer. */
export const entityId = bigintDomain('entity_id');

/** Nanoseconds since the epoch. */
export const nanosTimestamp = bigintDomain('nanos_timestamp');

/** An amount of tinybars (10^-8 hbar). */
export const hbarTinybars = bigintDomain('hbar_tinybars');

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * Bytes go to the database as `\x…` hex text rather than as a binary parameter: drizzle writes the elements of
 * `bytea[]` values into an array literal, where only text survives.
 */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array | string }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (typeof value === 'string' ? fromHex(value) : value),
  toDriver: (value) => {
    let hex = '\\x';
    for (const byte of value) hex += HEX[byte];
    return hex;
  },
});

function fromHex(text: string): Uint8Array {
  if (!text.startsWith('\\x')) throw new Error(`not a hex bytea: ${text.slice(0, 16)}`);
  const bytes = new Uint8Array((text.length - 2) / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(text.slice(2 + 2 * i, 4 + 2 * i), 16);
  return bytes;
}

/**
 * A canonical `int8range`: `lower` inclusive, `upper` exclusive, `null` for an unbounded side.
 * Postgres stores an empty range as `empty`; it reads back as `lower === upper === 0n`.
 */
export interface Int8Range {
  lower: bigint | null;
  upper: bigint | null;
}

const INT8RANGE = /^[[(](-?\d*),(-?\d*)[\])]$/;

export const int8range = customType<{ data: Int8Range; driverData: string }>({
  dataType: () => 'int8range',
  fromDriver: (value) => {
    if (value === 'empty') return { lower: 0n, upper: 0n };
    const match = INT8RANGE.exec(value);
    if (!match) throw new Error(`not an int8range: ${value}`);
    // Postgres returns discrete ranges canonicalised to [lower,upper), so the brackets carry no information.
    const [, lower, upper] = match;
    return { lower: lower ? BigInt(lower) : null, upper: upper ? BigInt(upper) : null };
  },
  toDriver: (value) => `[${value.lower ?? ''},${value.upper ?? ''})`,
});
