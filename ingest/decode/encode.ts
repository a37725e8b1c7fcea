/** Serializing a plain message back to protobuf bytes, for columns that store a message (initial transaction ids). */
import { hapi } from '../../proto/hapi.ts';

function forProtobuf(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return value.map(forProtobuf);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, forProtobuf(v)]));
}

export function encodeMessage(typeName: string, plain: unknown): Uint8Array {
  const type = hapi().root.lookupType(typeName);
  return type.encode(type.fromObject(forProtobuf(plain) as Record<string, unknown>)).finish();
}
