/**
 * Bytes → the plain objects of plain.ts in one pass: `decodePlain(type, bytes)` equals
 * `toPlain(type.decode(bytes))` (same keys in the same order, repeated fields always present, 64-bit integers
 * as bigint, kept-serialized messages as their re-encoded bytes) without building protobufjs messages and a
 * `Long` per 64-bit field first, which is where most of the ingest's decoding time and garbage went.
 *
 * One decoder function per message type is generated from the protobufjs reflection (as protobufjs itself
 * does); scalars are read with the protobufjs `Reader`, so strings, bytes and errors behave as before. Fields
 * named in `rawFields` stay undecoded (their bytes), for decoding later and only when needed.
 */
import protobuf from 'protobufjs';
import { hapi } from '../../proto/hapi.ts';
import { keptSerialized } from './plain.ts';

type Plain = Record<string, unknown>;
type Decode = (r: protobuf.Reader, end: number) => Plain;

/** protobufjs's own message for a read past the end. */
function outOfRange(r: protobuf.Reader, length: number): RangeError {
  return new RangeError(`index out of range: ${r.pos} + ${length} > ${r.len}`);
}

const TWO_32 = 4294967296;
/** |hi| below 2^21: hi · 2^32 + lo is an exact double, and `BigInt(number)` is far cheaper than shifts. */
const EXACT_HI = 0x200000;

function signed(lo: number, hi: number): bigint {
  const h = hi | 0;
  if (h >= -EXACT_HI && h < EXACT_HI) return BigInt(h * TWO_32 + lo);
  return BigInt.asIntN(64, (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0));
}

function unsigned(lo: number, hi: number): bigint {
  if (hi >>> 0 < EXACT_HI) return BigInt((hi >>> 0) * TWO_32 + lo);
  return (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
}

/** Low and high 32 bits of a varint (protobufjs's readLongVarint), left in `BITS`. */
const BITS = { lo: 0, hi: 0 };

function readVarint64(r: protobuf.Reader): void {
  const buf = r.buf;
  let lo = 0;
  let hi = 0;
  let b: number;
  for (let i = 0; i < 4; i++) {
    if (r.pos >= r.len) throw outOfRange(r, 1);
    b = buf[r.pos++] as number;
    lo = (lo | ((b & 127) << (i * 7))) >>> 0;
    if (b < 128) {
      BITS.lo = lo;
      BITS.hi = 0;
      return;
    }
  }
  if (r.pos >= r.len) throw outOfRange(r, 1);
  b = buf[r.pos++] as number;
  lo = (lo | ((b & 127) << 28)) >>> 0;
  hi = (hi | ((b & 127) >> 4)) >>> 0;
  if (b < 128) {
    BITS.lo = lo;
    BITS.hi = hi;
    return;
  }
  for (let i = 0; i < 5; i++) {
    if (r.pos >= r.len) throw outOfRange(r, 1);
    b = buf[r.pos++] as number;
    hi = (hi | ((b & 127) << (i * 7 + 3))) >>> 0;
    if (b < 128) {
      BITS.lo = lo;
      BITS.hi = hi;
      return;
    }
  }
  throw new Error('invalid varint encoding');
}

function readFixed64(r: protobuf.Reader): void {
  if (r.pos + 8 > r.len) throw outOfRange(r, 8);
  const buf = r.buf;
  const p = r.pos;
  BITS.lo =
    ((buf[p] as number) |
      ((buf[p + 1] as number) << 8) |
      ((buf[p + 2] as number) << 16) |
      ((buf[p + 3] as number) << 24)) >>>
    0;
  BITS.hi =
    ((buf[p + 4] as number) |
      ((buf[p + 5] as number) << 8) |
      ((buf[p + 6] as number) << 16) |
      ((buf[p + 7] as number) << 24)) >>>
    0;
  r.pos = p + 8;
}

/** The 64-bit readers the generated code calls, with the signedness protobufjs gives each type. */
const LONG = {
  int64(r: protobuf.Reader): bigint {
    readVarint64(r);
    return signed(BITS.lo, BITS.hi);
  },
  uint64(r: protobuf.Reader): bigint {
    readVarint64(r);
    return unsigned(BITS.lo, BITS.hi);
  },
  sint64(r: protobuf.Reader): bigint {
    readVarint64(r);
    const mask = -(BITS.lo & 1);
    const lo = (((BITS.lo >>> 1) | (BITS.hi << 31)) ^ mask) >>> 0;
    const hi = ((BITS.hi >>> 1) ^ mask) >>> 0;
    return signed(lo, hi);
  },
  fixed64(r: protobuf.Reader): bigint {
    readFixed64(r);
    return unsigned(BITS.lo, BITS.hi);
  },
  sfixed64(r: protobuf.Reader): bigint {
    readFixed64(r);
    return signed(BITS.lo, BITS.hi);
  },
};

const SCALAR_32 = new Set(['double', 'float', 'int32', 'uint32', 'sint32', 'fixed32', 'sfixed32', 'bool']);
const PACKABLE = new Set([...SCALAR_32, ...Object.keys(LONG)]);

interface Slot {
  fn: Decode;
}

export class PlainDecoder {
  private readonly slots = new Map<protobuf.Type, Slot>();
  private readonly kept: ReadonlySet<protobuf.Type>;
  private readonly raw: ReadonlySet<protobuf.Field>;

  constructor(kept: ReadonlySet<protobuf.Type>, rawFields: ReadonlySet<protobuf.Field> = new Set()) {
    this.kept = kept;
    this.raw = rawFields;
  }

  decode(type: protobuf.Type, bytes: Uint8Array): Plain {
    const r = protobuf.Reader.create(bytes);
    return this.slot(type).fn(r, r.len);
  }

  private slot(type: protobuf.Type): Slot {
    let slot = this.slots.get(type);
    if (slot) return slot;
    slot = { fn: () => ({}) };
    // Registered before compiling, so recursive types refer to the slot being built.
    this.slots.set(type, slot);
    slot.fn = this.compile(type);
    return slot;
  }

  private compile(type: protobuf.Type): Decode {
    const refs: unknown[] = [];
    const ref = (value: unknown) => {
      refs.push(value);
      return `R[${refs.length - 1}]`;
    };
    const initial: string[] = [];
    const cases: string[] = [];
    for (const field of type.fieldsArray) {
      field.resolve();
      if (field.map || field.delimited) throw new Error(`${type.fullName}.${field.name}: maps and groups unsupported`);
      const target = `m[${JSON.stringify(field.name)}]`;
      const read = this.reader(field, ref);
      if (field.repeated) {
        initial.push(`${JSON.stringify(field.name)}: []`);
        const kind = field.resolvedType instanceof protobuf.Enum ? 'int32' : field.type;
        const packed = PACKABLE.has(kind)
          ? `if ((t & 7) === 2) { const c2 = r.uint32() + r.pos; while (r.pos < c2) ${target}.push(${read}); } else `
          : '';
        cases.push(`case ${field.id}: ${packed}${target}.push(${read}); break;`);
      } else {
        cases.push(`case ${field.id}: ${target} = ${read}; break;`);
      }
    }
    const source = `return function decode_${type.name}(r, c) {
  const m = {${initial.join(', ')}};
  while (r.pos < c) {
    const t = r.uint32();
    switch (t >>> 3) {
      ${cases.join('\n      ')}
      default: r.skipType(t & 7);
    }
  }
  return m;
}`;
    return new Function('R', source)(refs) as Decode;
  }

  /** The expression that reads one value of `field` at `r.pos`. */
  private reader(field: protobuf.Field, ref: (value: unknown) => string): string {
    if (this.raw.has(field)) return 'r.bytes()';
    const resolved = field.resolvedType;
    if (resolved instanceof protobuf.Enum) return 'r.int32()';
    if (resolved instanceof protobuf.Type) {
      if (this.kept.has(resolved)) {
        // As toPlain: the message decoded and encoded again (canonical bytes, unknown fields dropped).
        const t = ref(resolved);
        return `${t}.encode(${t}.decode(r, r.uint32())).finish()`;
      }
      return `${ref(this.slot(resolved))}.fn(r, r.uint32() + r.pos)`;
    }
    if (Object.hasOwn(LONG, field.type)) return `${ref(LONG)}.${field.type}(r)`;
    if (SCALAR_32.has(field.type) || field.type === 'string' || field.type === 'bytes') return `r.${field.type}()`;
    throw new Error(`${field.fullName}: unsupported type ${field.type}`);
  }
}

let shared: PlainDecoder | undefined;

/**
 * The ingest's decoder: kept-serialized types as plain.ts keeps them; a record stream item's transaction and
 * record, and a Transaction's deprecated `body`, stay raw bytes (decoded per item, see record-item.ts).
 */
export function plainDecoder(): PlainDecoder {
  if (shared) return shared;
  const item = hapi().root.lookupType('proto.RecordStreamItem');
  const transaction = hapi().Transaction;
  const raw = [item.fields.transaction, item.fields.record, transaction.fields.body].filter((f) => f !== undefined);
  shared = new PlainDecoder(keptSerialized(), new Set(raw));
  return shared;
}

/** `toPlain(type.decode(bytes))` in one pass. */
export function decodePlain(type: protobuf.Type, bytes: Uint8Array): Plain {
  return plainDecoder().decode(type, bytes);
}
