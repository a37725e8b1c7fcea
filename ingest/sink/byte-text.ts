/** UTF-16 units gathered before ByteText encodes them. */
const PENDING_LIMIT = 16 * 1024;

/**
 * A growing UTF-8 byte buffer. Lines are gathered into a string and encoded a few kilobytes at a time: one
 * encoding call per row cost more than the rows' encoding itself.
 */
export class ByteText {
  protected buffer = Buffer.allocUnsafe(64 * 1024);
  protected pending = '';
  protected written = 0;

  append(text: string): void {
    this.pending += text;
    if (this.pending.length >= PENDING_LIMIT) this.flush();
  }

  private flush(): void {
    const text = this.pending;
    if (text.length === 0) return;
    this.pending = '';
    // A UTF-16 unit is at most 3 UTF-8 bytes.
    const needed = this.written + text.length * 3;
    if (needed > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.buffer.length * 2));
      this.buffer.copy(grown, 0, 0, this.written);
      this.buffer = grown;
    }
    this.written += this.buffer.write(text, this.written);
  }

  bytes(): Buffer {
    this.flush();
    return this.buffer.subarray(0, this.written);
  }

  /** The backing memory, to move it to another thread (the text is unusable here afterwards). */
  transferable(): ArrayBuffer {
    this.flush();
    return this.buffer.buffer as ArrayBuffer;
  }

  /** A ByteText that crossed a thread (structured clone): methods back, its bytes a Buffer again. */
  static revive(data: ByteText): ByteText {
    const text = Object.setPrototypeOf(data, ByteText.prototype) as ByteText;
    const bytes = text.buffer as Uint8Array;
    text.buffer = Buffer.from(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
    return text;
  }
}
