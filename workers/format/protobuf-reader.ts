/**
 * A minimal protobuf wire-format reader for the few small messages the API decodes from stored bytes (custom fee
 * limits), so the Worker does not carry a protobuf runtime. Unknown fields are skipped.
 */
export type Field = { number: number; varint: bigint } | { number: number; bytes: Uint8Array };

export function* fields(buffer: Uint8Array): Generator<Field> {
  let pos = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (pos >= buffer.length) throw new Error('truncated varint');
      const byte = buffer[pos++] as number;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (pos < buffer.length) {
    const tag = Number(varint());
    const number = tag >>> 3;
    switch (tag & 7) {
      case 0:
        yield { number, varint: varint() };
        break;
      case 1:
        pos += 8;
        break;
      case 2: {
        const length = Number(varint());
        if (pos + length > buffer.length) throw new Error('truncated field');
        yield { number, bytes: buffer.subarray(pos, pos + length) };
        pos += length;
        break;
      }
      case 5:
        pos += 4;
        break;
      default:
        throw new Error(`unsupported wire type ${tag & 7}`);
    }
  }
}

/** A varint as the signed int64 it encodes (two's complement). */
export function int64(value: bigint): bigint {
  return BigInt.asIntN(64, value);
}
