/**
 * The protobuf wire format of the messages a fee estimate reads (a HAPI `Transaction` and the parts of its body the
 * fee calculators count), without a schema: a message is split into its fields, and a field is read as a varint, a
 * nested message or bytes when the calculator asks for it. Any structural fault (a truncated field, a wire type
 * that does not exist, a group) is a `WireError`; the route answers it with a 400.
 */

export class WireError extends Error {
  override readonly name = 'WireError';
}

/** A field's value; `at` is its place among the message's fields (a oneof takes the member that comes last). */
export type WireValue = ({ wire: 0; varint: bigint } | { wire: 2; bytes: Uint8Array } | { wire: 1 | 5 }) & {
  at: number;
};

/** A message's fields by number, each number's values in wire order. */
export type Fields = ReadonlyMap<number, readonly WireValue[]>;

const MAX_VARINT_BYTES = 10;

/** Splits `bytes` into fields. Groups (wire types 3 and 4) are rejected: no HAPI message uses them. */
export function readFields(bytes: Uint8Array): Fields {
  const fields = new Map<number, WireValue[]>();
  let pos = 0;
  const varint = (): bigint => {
    let result = 0n;
    for (let i = 0; i < MAX_VARINT_BYTES; i++) {
      if (pos >= bytes.length) throw new WireError('truncated varint');
      const byte = bytes[pos++] as number;
      result |= BigInt(byte & 0x7f) << BigInt(7 * i);
      if ((byte & 0x80) === 0) return BigInt.asUintN(64, result);
    }
    throw new WireError('malformed varint');
  };
  const skip = (count: number) => {
    if (count > bytes.length - pos) throw new WireError('truncated field');
    pos += count;
  };
  for (let at = 0; pos < bytes.length; at++) {
    const tag = varint();
    const number = Number(tag >> 3n);
    if (number === 0 || number > 0x1fffffff) throw new WireError('invalid field number');
    let value: WireValue;
    switch (Number(tag & 7n)) {
      case 0:
        value = { wire: 0, varint: varint(), at };
        break;
      case 1:
        skip(8);
        value = { wire: 1, at };
        break;
      case 2: {
        const length = varint();
        if (length > BigInt(bytes.length - pos)) throw new WireError('truncated field');
        const start = pos;
        pos += Number(length);
        value = { wire: 2, bytes: bytes.subarray(start, pos), at };
        break;
      }
      case 5:
        skip(4);
        value = { wire: 5, at };
        break;
      default:
        throw new WireError('unsupported wire type');
    }
    const list = fields.get(number);
    if (list) list.push(value);
    else fields.set(number, [value]);
  }
  return fields;
}

function expectBytes(value: WireValue): Uint8Array {
  if (value.wire !== 2) throw new WireError('wrong wire type');
  return value.bytes;
}

/** The last occurrence of a bytes or string field (protobuf's rule for a repeated singular field). */
export function bytesField(fields: Fields, number: number): Uint8Array | undefined {
  const values = fields.get(number);
  const last = values?.[values.length - 1];
  return last === undefined ? undefined : expectBytes(last);
}

/**
 * A singular message field, or undefined when absent. Occurrences are merged as protobuf does: their bytes
 * concatenated read as one message.
 */
export function messageField(fields: Fields, number: number): Fields | undefined {
  const values = fields.get(number);
  if (!values) return undefined;
  if (values.length === 1) return readFields(expectBytes(values[0] as WireValue));
  const parts = values.map(expectBytes);
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return readFields(joined);
}

/** Every element of a repeated message field. */
export function repeatedMessages(fields: Fields, number: number): Fields[] {
  return (fields.get(number) ?? []).map((value) => readFields(expectBytes(value)));
}

/** The last value of a varint field (int32, int64, uint32, uint64, bool, enum), 0 when absent. */
export function varintField(fields: Fields, number: number): bigint {
  const values = fields.get(number);
  const last = values?.[values.length - 1];
  if (last === undefined) return 0n;
  if (last.wire !== 0) throw new WireError('wrong wire type');
  return last.varint;
}

/** How many elements a repeated varint field holds, packed (one length-delimited run) or not. */
export function repeatedVarintCount(fields: Fields, number: number): number {
  let count = 0;
  for (const value of fields.get(number) ?? []) {
    if (value.wire === 0) {
      count++;
      continue;
    }
    const run = expectBytes(value);
    for (let i = 0; i < run.length; i++) if (((run[i] as number) & 0x80) === 0) count++;
    if (run.length > 0 && ((run[run.length - 1] as number) & 0x80) !== 0) throw new WireError('truncated varint');
  }
  return count;
}

/** How many times a repeated field occurs. */
export const fieldCount = (fields: Fields, number: number): number => fields.get(number)?.length ?? 0;

/** The member of a oneof that is set: of the numbers given, the one whose value comes last on the wire. */
export function oneofMember(
  fields: Fields,
  members: Iterable<number>,
): { number: number; value: WireValue } | undefined {
  let found: { number: number; value: WireValue } | undefined;
  for (const number of members) {
    const values = fields.get(number);
    const last = values?.[values.length - 1];
    if (last && (!found || last.at > found.value.at)) found = { number, value: last };
  }
  return found;
}
