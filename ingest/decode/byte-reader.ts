/** Sequential big-endian reads (Java DataOutputStream layout) with bounds checks that name what was expected. */
export class ByteReader {
  readonly bytes: Uint8Array;
  private readonly view: DataView;
  offset = 0;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  private need(count: number, what: string): void {
    if (count < 0 || this.offset + count > this.bytes.length) {
      throw new FormatError(`truncated: expected ${what} at offset ${this.offset}`);
    }
  }

  byte(what: string): number {
    this.need(1, what);
    return this.view.getUint8(this.offset++);
  }

  int32(what: string): number {
    this.need(4, what);
    const value = this.view.getInt32(this.offset);
    this.offset += 4;
    return value;
  }

  int64(what: string): bigint {
    this.need(8, what);
    const value = this.view.getBigInt64(this.offset);
    this.offset += 8;
    return value;
  }

  peekInt64(): bigint | undefined {
    return this.remaining >= 8 ? this.view.getBigInt64(this.offset) : undefined;
  }

  take(count: number, what: string): Uint8Array {
    this.need(count, what);
    const out = this.bytes.subarray(this.offset, this.offset + count);
    this.offset += count;
    return out;
  }

  /** An int32 length then that many bytes, the length bounded by `max`. */
  lengthPrefixed(what: string, max = 64 * 1024 * 1024): Uint8Array {
    const length = this.int32(`${what} length`);
    if (length < 0 || length > max) throw new FormatError(`invalid ${what} length ${length}`);
    return this.take(length, what);
  }
}

/** A stream file whose bytes do not follow its format. */
export class FormatError extends Error {
  override name = 'FormatError';
}
