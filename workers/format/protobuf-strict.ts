/**
 * A schema-driven protobuf decoder that accepts and rejects bytes exactly as protobuf-java's generated parsers do,
 * for the system files the API decodes (the reference falls back to an older file when one fails to parse, so the
 * same bytes must fail here). Merge semantics match too: a repeated singular message field merges into the first,
 * a repeated scalar keeps the last value, a repeated field appends. A field whose wire type does not match the
 * schema is an unknown field and skipped; unknown groups are skipped but must be well formed.
 */

export type ScalarKind = 'int32' | 'int64' | 'enum';

export type FieldDef =
  | { name: string; kind: ScalarKind }
  | { name: string; kind: 'message'; message: MessageDef; repeated?: boolean };

export type MessageDef = Readonly<Record<number, FieldDef>>;

/** A decoded message: int32 and enum fields as numbers, int64 as bigint, messages as objects (absent if unset). */
export interface Decoded {
  [name: string]: number | bigint | Decoded | Decoded[] | undefined;
}

export class ProtobufError extends Error {
  override readonly name = 'ProtobufError';
}

const RECURSION_LIMIT = 100;
const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_LENGTH_DELIMITED = 2;
const WIRE_START_GROUP = 3;
const WIRE_END_GROUP = 4;
const WIRE_FIXED32 = 5;

class Reader {
  pos = 0;
  limit: number;
  lastTag = 0;
  depth = 0;

  readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.limit = bytes.length;
  }

  /** A varint of up to ten bytes. */
  varint64(): bigint {
    let result = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.limit) throw new ProtobufError('truncated message');
      const byte = this.bytes[this.pos++] as number;
      result |= BigInt(byte & 0x7f) << BigInt(7 * i);
      if ((byte & 0x80) === 0) return BigInt.asUintN(64, result);
    }
    throw new ProtobufError('malformed varint');
  }

  /** A varint read as a signed 32-bit value (higher bits discarded). */
  varint32(): number {
    return Number(BigInt.asIntN(32, this.varint64()));
  }

  skip(count: number) {
    if (count < 0) throw new ProtobufError('negative size');
    if (count > this.limit - this.pos) throw new ProtobufError('truncated message');
    this.pos += count;
  }

  /** The next tag, or 0 at the end of the current message. */
  tag(): number {
    if (this.pos >= this.limit) {
      this.lastTag = 0;
      return 0;
    }
    this.lastTag = this.varint32();
    if (this.lastTag >>> 3 === 0) throw new ProtobufError('invalid tag (zero)');
    return this.lastTag;
  }

  enter() {
    if (++this.depth > RECURSION_LIMIT) throw new ProtobufError('recursion limit exceeded');
  }
}

/** Skips an unknown field; false for an end-group tag (which ends the enclosing message or group). */
function skipField(reader: Reader, tag: number): boolean {
  switch (tag & 7) {
    case WIRE_VARINT:
      reader.varint64();
      return true;
    case WIRE_FIXED64:
      reader.skip(8);
      return true;
    case WIRE_LENGTH_DELIMITED:
      reader.skip(reader.varint32());
      return true;
    case WIRE_START_GROUP: {
      reader.enter();
      while (true) {
        const inner = reader.tag();
        if (inner === 0 || !skipField(reader, inner)) break;
      }
      reader.depth--;
      if (reader.lastTag !== (((tag >>> 3) << 3) | WIRE_END_GROUP)) throw new ProtobufError('invalid end tag');
      return true;
    }
    case WIRE_END_GROUP:
      return false;
    case WIRE_FIXED32:
      reader.skip(4);
      return true;
    default:
      throw new ProtobufError('invalid wire type');
  }
}

function readInto(reader: Reader, def: MessageDef, target: Decoded) {
  while (true) {
    const tag = reader.tag();
    if (tag === 0) return;
    const field = def[tag >>> 3];
    const wire = tag & 7;
    if (field === undefined || wire !== (field.kind === 'message' ? WIRE_LENGTH_DELIMITED : WIRE_VARINT)) {
      if (!skipField(reader, tag)) return;
      continue;
    }
    if (field.kind === 'int32' || field.kind === 'enum') target[field.name] = reader.varint32();
    else if (field.kind === 'int64') target[field.name] = BigInt.asIntN(64, reader.varint64());
    else if (field.kind === 'message') {
      let sub: Decoded;
      if (field.repeated) {
        sub = {};
        const list = (target[field.name] as Decoded[] | undefined) ?? [];
        list.push(sub);
        target[field.name] = list;
      } else {
        sub = (target[field.name] as Decoded | undefined) ?? {};
        target[field.name] = sub;
      }
      readMessage(reader, field.message, sub);
    }
  }
}

function readMessage(reader: Reader, def: MessageDef, target: Decoded) {
  const length = reader.varint32();
  if (length < 0) throw new ProtobufError('negative size');
  if (length > reader.limit - reader.pos) throw new ProtobufError('truncated message');
  reader.enter();
  const outerLimit = reader.limit;
  reader.limit = reader.pos + length;
  readInto(reader, def, target);
  if (reader.lastTag !== 0) throw new ProtobufError('invalid end tag');
  reader.limit = outerLimit;
  reader.depth--;
}

/** Decodes a whole buffer as one message; throws `ProtobufError` where protobuf-java would refuse it. */
export function decodeMessage(bytes: Uint8Array, def: MessageDef): Decoded {
  const reader = new Reader(bytes);
  const target: Decoded = {};
  readInto(reader, def, target);
  if (reader.lastTag !== 0) throw new ProtobufError('invalid end tag');
  return target;
}
