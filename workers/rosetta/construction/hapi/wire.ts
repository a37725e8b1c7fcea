/**
 * Protobuf wire format as the reference's Go code reads and writes it (google.golang.org/protobuf), for the HAPI
 * messages the Construction API builds and takes apart, so the Worker needs no protobuf runtime. Reading follows
 * protobuf-go: a field number outside 1…2^29-1, a truncated value, a varint longer than ten bytes, a bad wire type or
 * an unmatched group end fails the whole message; a field sent with another wire type than its own is an unknown
 * field; a `string` must be UTF-8; a message field met twice is merged (its bytes read as one); of a `oneof`, the last
 * member met wins. Writing follows its deterministic order: fields by number, zero scalars of proto3 left out.
 */
import { concatBytes } from '../../../../common/concat-bytes.ts';

export class WireError extends Error {
  override readonly name = 'WireError';
}

/** What one field of a message holds on the wire. */
export type FieldKind = 'int64' | 'uint64' | 'int32' | 'uint32' | 'sint64' | 'bool' | 'bytes' | 'string' | 'message';

export interface FieldDef {
  readonly name: string;
  readonly kind: FieldKind;
  readonly repeated?: boolean;
  /** The message a `message` field holds (fields it does not list are unknown fields, checked for form only). */
  readonly message?: () => MessageDef;
  /** The `oneof` the field belongs to: setting it clears the other members. */
  readonly oneof?: string;
}

export type MessageDef = Readonly<Record<number, FieldDef>>;

/** A decoded message: scalars as bigint, number, boolean, bytes or string; messages as objects; repeated as arrays. */
export type Decoded = { [name: string]: unknown };

const MAX_FIELD_NUMBER = (1 << 29) - 1;
const RECURSION_LIMIT = 10_000;
// A byte order mark is a character like any other in a protobuf string: kept, not stripped.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

interface RawField {
  readonly number: number;
  readonly wire: number;
  /** The varint's value (wire 0), or the payload (wire 2). */
  readonly value: bigint | Uint8Array | undefined;
}

class Reader {
  pos = 0;
  readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  varint(): bigint {
    let result = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.bytes.length) throw new WireError('unexpected EOF');
      const byte = this.bytes[this.pos++] as number;
      if (i === 9 && byte > 1) throw new WireError('variable length integer overflow');
      result |= BigInt(byte & 0x7f) << BigInt(7 * i);
      if ((byte & 0x80) === 0) return result;
    }
    throw new WireError('variable length integer overflow');
  }

  take(count: bigint | number): Uint8Array {
    const n = typeof count === 'bigint' ? count : BigInt(count);
    if (n > BigInt(this.bytes.length - this.pos)) throw new WireError('unexpected EOF');
    const start = this.pos;
    this.pos += Number(n);
    return this.bytes.subarray(start, this.pos);
  }

  tag(): { number: number; wire: number } {
    const tag = this.varint();
    const number = tag >> 3n;
    if (number < 1n || number > BigInt(MAX_FIELD_NUMBER)) throw new WireError('invalid field number');
    return { number: Number(number), wire: Number(tag & 7n) };
  }

  /** Skips a group's contents up to its end tag. */
  group(number: number, depth: number): void {
    if (depth > RECURSION_LIMIT) throw new WireError('exceeded maximum recursion depth');
    for (;;) {
      const tag = this.tag();
      if (tag.wire === 4) {
        if (tag.number !== number) throw new WireError('mismatching end group marker');
        return;
      }
      this.value(tag.number, tag.wire, depth + 1);
    }
  }

  value(number: number, wire: number, depth: number): bigint | Uint8Array | undefined {
    switch (wire) {
      case 0:
        return this.varint();
      case 1:
        this.take(8);
        return undefined;
      case 2:
        return this.take(this.varint());
      case 3:
        this.group(number, depth);
        return undefined;
      case 5:
        this.take(4);
        return undefined;
      default:
        throw new WireError(wire === 4 ? 'unexpected end group' : 'invalid wire type');
    }
  }
}

/** The fields of `bytes` in order, each checked for form (groups included). */
function rawFields(bytes: Uint8Array, depth: number): RawField[] {
  const reader = new Reader(bytes);
  const fields: RawField[] = [];
  while (reader.pos < bytes.length) {
    const { number, wire } = reader.tag();
    fields.push({ number, wire, value: reader.value(number, wire, depth) });
  }
  return fields;
}

const WIRE_OF: Readonly<Record<FieldKind, number>> = {
  int64: 0,
  uint64: 0,
  int32: 0,
  uint32: 0,
  sint64: 0,
  bool: 0,
  bytes: 2,
  string: 2,
  message: 2,
};

function scalar(kind: FieldKind, value: bigint | Uint8Array): unknown {
  if (value instanceof Uint8Array) {
    if (kind !== 'string') return value;
    try {
      return utf8.decode(value);
    } catch {
      throw new WireError('invalid UTF-8');
    }
  }
  switch (kind) {
    case 'int64':
      return BigInt.asIntN(64, value);
    case 'uint64':
      return value;
    case 'int32':
      return Number(BigInt.asIntN(32, value));
    case 'uint32':
      return Number(BigInt.asUintN(32, value));
    case 'sint64':
      return (value >> 1n) ^ -(value & 1n);
    default:
      return value !== 0n;
  }
}

function decodeAt(bytes: Uint8Array, def: MessageDef, depth: number): Decoded {
  if (depth > RECURSION_LIMIT) throw new WireError('exceeded maximum recursion depth');
  const out: Decoded = {};
  // A singular message field met more than once is merged: its occurrences read as one.
  const messageChunks = new Map<string, Uint8Array[]>();
  const oneofs = new Map<string, string>();
  for (const field of rawFields(bytes, depth)) {
    const known = def[field.number];
    if (!known || field.value === undefined || WIRE_OF[known.kind] !== field.wire) continue;
    if (known.oneof) {
      const previous = oneofs.get(known.oneof);
      if (previous !== undefined && previous !== known.name) {
        delete out[previous];
        messageChunks.delete(previous);
      }
      oneofs.set(known.oneof, known.name);
    }
    if (known.kind === 'message') {
      const chunk = field.value as Uint8Array;
      if (known.repeated) {
        const list = (out[known.name] as Decoded[] | undefined) ?? [];
        list.push(decodeAt(chunk, known.message?.() ?? {}, depth + 1));
        out[known.name] = list;
      } else {
        const chunks = messageChunks.get(known.name) ?? [];
        chunks.push(chunk);
        messageChunks.set(known.name, chunks);
      }
    } else if (known.repeated) {
      const list = (out[known.name] as unknown[] | undefined) ?? [];
      list.push(scalar(known.kind, field.value));
      out[known.name] = list;
    } else {
      out[known.name] = scalar(known.kind, field.value);
    }
  }
  for (const [name, chunks] of messageChunks) {
    const field = Object.values(def).find((f) => f.name === name) as FieldDef;
    out[name] = decodeAt(concatBytes(chunks), field.message?.() ?? {}, depth + 1);
  }
  return out;
}

/** Decodes `bytes` as the message `def` describes; throws `WireError` where protobuf-go's Unmarshal fails. */
export function decodeMessage(bytes: Uint8Array, def: MessageDef): Decoded {
  return decodeAt(bytes, def, 0);
}

/** The fields of a message as they are on the wire, for re-writing a message with its unknown fields kept. */
export function splitFields(bytes: Uint8Array): { number: number; bytes: Uint8Array }[] {
  const reader = new Reader(bytes);
  const fields: { number: number; bytes: Uint8Array }[] = [];
  while (reader.pos < bytes.length) {
    const start = reader.pos;
    const { number, wire } = reader.tag();
    reader.value(number, wire, 0);
    fields.push({ number, bytes: bytes.subarray(start, reader.pos) });
  }
  return fields;
}

/** Writes a message in protobuf-go's deterministic form; the caller adds fields in number order. */
export class Writer {
  private readonly parts: number[] = [];

  private varint(value: bigint): void {
    let v = BigInt.asUintN(64, value);
    while (v >= 0x80n) {
      this.parts.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.parts.push(Number(v));
  }

  private tag(number: number, wire: number): void {
    this.varint(BigInt(number) * 8n + BigInt(wire));
  }

  /** An int64, uint64, int32 (sign-extended) or enum field; proto3 leaves out zero unless `always` (a oneof member). */
  int(number: number, value: bigint | number, always = false): this {
    const v = BigInt(value);
    if (v === 0n && !always) return this;
    this.tag(number, 0);
    this.varint(v);
    return this;
  }

  sint64(number: number, value: bigint): this {
    if (value === 0n) return this;
    this.tag(number, 0);
    this.varint((value << 1n) ^ (value >> 63n));
    return this;
  }

  bool(number: number, value: boolean): this {
    if (!value) return this;
    this.tag(number, 0);
    this.varint(1n);
    return this;
  }

  /** A bytes or string field; left out when empty unless `always` (a oneof member). */
  bytes(number: number, value: Uint8Array | string, always = false): this {
    const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value;
    if (bytes.length === 0 && !always) return this;
    this.tag(number, 2);
    this.varint(BigInt(bytes.length));
    for (const byte of bytes) this.parts.push(byte);
    return this;
  }

  /** A message field: written when set, even when empty (a non-nil pointer in Go). */
  message(number: number, value: Uint8Array | Writer | undefined): this {
    if (value === undefined) return this;
    return this.bytes(number, value instanceof Writer ? value.finish() : value, true);
  }

  /** Bytes already in wire form (a field kept as it came). */
  raw(bytes: Uint8Array): this {
    for (const byte of bytes) this.parts.push(byte);
    return this;
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}
