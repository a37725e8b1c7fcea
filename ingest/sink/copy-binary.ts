/**
 * COPY's binary format for the tables whose every column has a binary form here (most of the big ones:
 * crypto_transfer, transaction, topic_message…): Postgres reads each field as its type's wire bytes, with no
 * text to parse, and the ingest writes integers and bytes as they are instead of as decimal and hex text.
 * A field holds exactly the value its text form (copy-text.ts) would give the column.
 */
import { ByteText } from './byte-text.ts';
import { jsonText, sqlText } from './sql-text.ts';

/**
 * How a column is written: its base type (a domain's, an enum as `text`), or `other` for types without a
 * binary form here (ranges, numeric…), whose tables stay COPY text.
 */
export type ColumnKind =
  | 'int8'
  | 'int4'
  | 'int2'
  | 'bool'
  | 'bytea'
  | 'text'
  | 'json'
  | 'jsonb'
  | 'int8[]'
  | 'bytea[]'
  | 'other';

/** `PGCOPY\n\377\r\n\0`, no flags, no header extension. */
export const BINARY_HEADER = Buffer.from([
  0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00, 0, 0, 0, 0, 0, 0, 0, 0,
]);
/** The field count -1 that ends the data. */
export const BINARY_TRAILER = Buffer.from([0xff, 0xff]);

const INT8_OID = 20;
const INT8_MAX = 0x7fff_ffff_ffff_ffffn;
const INT4_MAX = 0x7fff_ffff;
const INT2_MAX = 0x7fff;
const BYTEA_OID = 17;
/** jsonb's binary form starts with its format version. */
const JSONB_VERSION = 1;
const HEX_PREFIX = '\\x';

/** Rows in COPY binary form: each a field count, then each field's length (-1: NULL) and bytes. */
export class BinaryText extends ByteText {
  /** Over `buffer`: DataView's setters are several times cheaper than Buffer's writeBigInt64BE. */
  private view: DataView | undefined;

  private grow(bytes: number): DataView {
    const needed = this.written + bytes;
    if (needed > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.buffer.length * 2));
      this.buffer.copy(grown, 0, 0, this.written);
      this.buffer = grown;
      this.view = undefined;
    }
    this.view ??= new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.length);
    return this.view;
  }

  override transferable(): ArrayBuffer {
    this.view = undefined;
    return super.transferable();
  }

  int16(value: number): void {
    this.grow(2).setInt16(this.written, value);
    this.written += 2;
  }

  int32(value: number): void {
    this.grow(4).setInt32(this.written, value);
    this.written += 4;
  }

  int64(value: bigint): void {
    this.grow(8).setBigInt64(this.written, value);
    this.written += 8;
  }

  raw(bytes: Uint8Array): void {
    this.grow(bytes.length);
    this.buffer.set(bytes, this.written);
    this.written += bytes.length;
  }

  /** A length-prefixed UTF-8 field, `prefix` (a jsonb version byte) before the text. */
  utf8(text: string, prefix?: number): void {
    const start = this.written;
    const view = this.grow(5 + text.length * 3);
    this.written += 4;
    if (prefix !== undefined) this.buffer[this.written++] = prefix;
    this.written += this.buffer.write(text, this.written);
    view.setInt32(start, this.written - start - 4);
  }

  /** Writes `row` when it names exactly `columns`, in order; false, with nothing written, otherwise. */
  rowOf(row: Readonly<Record<string, unknown>>, columns: readonly string[], kinds: readonly ColumnKind[]): boolean {
    const start = this.written;
    this.int16(columns.length);
    let i = 0;
    for (const key in row) {
      if (columns[i] !== key) {
        i = -1;
        break;
      }
      this.field(row[key], kinds[i] as ColumnKind);
      i++;
    }
    if (i === columns.length) return true;
    this.written = start;
    return false;
  }

  field(value: unknown, kind: ColumnKind): void {
    if (value === null || value === undefined) {
      this.int32(-1);
      return;
    }
    switch (kind) {
      case 'int8':
        this.int32(8);
        this.int64(int8Of(value));
        return;
      case 'int4':
        this.int32(4);
        this.int32(integerOf(value, INT4_MAX));
        return;
      case 'int2':
        this.int32(2);
        this.int16(integerOf(value, INT2_MAX));
        return;
      case 'bool':
        this.int32(1);
        this.grow(1);
        this.buffer[this.written++] = booleanOf(value) ? 1 : 0;
        return;
      case 'bytea': {
        const bytes = byteaOf(value);
        this.int32(bytes.length);
        this.raw(bytes);
        return;
      }
      case 'text':
        this.utf8(typeof value === 'string' ? value : (sqlText(value, false) as string));
        return;
      case 'json':
        this.utf8(jsonText(value));
        return;
      case 'jsonb':
        this.utf8(jsonText(value), JSONB_VERSION);
        return;
      case 'int8[]':
      case 'bytea[]':
        this.array(value, kind);
        return;
      case 'other':
        throw new Error('a column without a binary form in a binary COPY');
    }
  }

  /** A one-dimensional array (lower bound 1), as array_recv reads it. */
  private array(value: unknown, kind: 'int8[]' | 'bytea[]'): void {
    if (!Array.isArray(value)) throw new Error(`not an array for a ${kind} column`);
    const element = kind === 'int8[]' ? 'int8' : 'bytea';
    const start = this.written;
    this.int32(0);
    this.int32(value.length === 0 ? 0 : 1);
    this.int32(value.some((v) => v === null || v === undefined) ? 1 : 0);
    this.int32(element === 'int8' ? INT8_OID : BYTEA_OID);
    if (value.length > 0) {
      this.int32(value.length);
      this.int32(1);
    }
    for (const item of value) this.field(item, element);
    this.grow(0).setInt32(start, this.written - start - 4);
  }
}

/**
 * The integer a value's text form names, refused like Postgres refuses the text when it is not one or out of
 * the column's range (the binary setters would silently wrap it).
 */
function integerOf(value: unknown, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n > max || n < -max - 1) throw new RangeError(`${String(value)} is out of range`);
  return n;
}

function int8Of(value: unknown): bigint {
  const n = typeof value === 'bigint' ? value : BigInt(value as number | string);
  if (n > INT8_MAX || n < -INT8_MAX - 1n) throw new RangeError(`${n} is out of range for int8`);
  return n;
}

function booleanOf(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  throw new Error(`not a boolean: ${String(value)}`);
}

/** Bytes as byteain would read the text form: a Uint8Array, or a string in hex (`\x…`) or without escapes. */
function byteaOf(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string') {
    if (value.startsWith(HEX_PREFIX)) return Buffer.from(value.slice(HEX_PREFIX.length), 'hex');
    if (!value.includes('\\')) return Buffer.from(value, 'utf8');
  }
  throw new Error('not bytes for a bytea column');
}

/**
 * `bytes` (whole binary rows, no header) with `count` NULL fields added to the end of every row: the rows of
 * a group written under its table's union of columns.
 */
export function withNullFields(bytes: Uint8Array, count: number): Buffer {
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: Buffer[] = [];
  const nulls = Buffer.alloc(4 * count, 0xff);
  let at = 0;
  while (at < input.length) {
    const fields = input.readInt16BE(at);
    const count16 = Buffer.allocUnsafe(2);
    count16.writeInt16BE(fields + count);
    let end = at + 2;
    for (let i = 0; i < fields; i++) {
      const length = input.readInt32BE(end);
      end += 4 + Math.max(length, 0);
    }
    parts.push(count16, input.subarray(at + 2, end), nulls);
    at = end;
  }
  return Buffer.concat(parts);
}
