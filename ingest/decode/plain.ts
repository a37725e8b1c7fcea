/**
 * Turns decoded protobufjs messages into plain objects: 64-bit integers become `bigint`, bytes stay
 * `Uint8Array`, nested messages become plain objects, and only fields present on the wire appear (so "has
 * field" is `!== undefined`). protobufjs `Long` values never leave this folder.
 */
import Long from 'long';

export type Plain = { readonly [field: string]: unknown };

function isLong(value: object): value is Long {
  return Long.isLong(value);
}

export function toPlain(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Uint8Array) return value;
  if (isLong(value)) return value.unsigned ? BigInt(value.toString()) : BigInt(value.toString());
  if (Array.isArray(value)) return value.map(toPlain);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    out[key] = toPlain((value as Record<string, unknown>)[key]);
  }
  return out;
}
