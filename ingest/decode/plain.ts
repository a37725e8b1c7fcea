/**
 * Turns decoded protobufjs messages into plain objects: 64-bit integers become `bigint`, bytes stay
 * `Uint8Array`, nested messages become plain objects, and only fields present on the wire appear (so "has
 * field" is `!== undefined`). Messages the schema stores serialized (keys, scheduled bodies) become their
 * protobuf bytes. protobufjs `Long` values never leave this folder.
 */
import Long from 'long';
import type protobuf from 'protobufjs';
import { hapi } from '../../proto/hapi.ts';

let serializedTypes: ReadonlySet<protobuf.Type> | undefined;

/** Types whose values the derivation only ever stores as bytes. */
export function keptSerialized(): ReadonlySet<protobuf.Type> {
  const { root } = hapi();
  serializedTypes ??= new Set([
    hapi().Key,
    hapi().KeyList,
    root.lookupType('proto.FeeExemptKeyList'),
    root.lookupType('proto.SchedulableTransactionBody'),
    root.lookupType('proto.CustomFeeLimit'),
  ]);
  return serializedTypes;
}

/** From the two 32-bit halves: much cheaper than going through the decimal string. */
function longToBigInt(value: Long): bigint {
  if (value.high === 0 && value.low >= 0) return BigInt(value.low);
  const bits = (BigInt(value.high >>> 0) << 32n) | BigInt(value.low >>> 0);
  return value.unsigned ? bits : BigInt.asIntN(64, bits);
}

export function toPlain(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Uint8Array) return value;
  if (Long.isLong(value)) return longToBigInt(value as Long);
  if (Array.isArray(value)) return value.map(toPlain);
  const type = (value as { $type?: protobuf.Type }).$type;
  if (type && keptSerialized().has(type)) return type.encode(value as protobuf.Message).finish();
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    out[key] = toPlain((value as Record<string, unknown>)[key]);
  }
  return out;
}
