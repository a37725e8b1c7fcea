/**
 * HPACK (RFC 7541), the header compression of HTTP/2: a decoder of everything a server may send (indexed fields,
 * literals with and without indexing, dynamic table size updates, Huffman-coded strings) and an encoder that writes
 * every field as a literal without indexing, so the client keeps no dynamic table the server must track.
 */
import { HuffmanError, huffmanDecode } from './huffman.ts';

// biome-ignore format: RFC 7541 Appendix A, the static table (index 1 to 61)
const STATIC_TABLE: readonly (readonly [string, string])[] = [
  [':authority', ''], [':method', 'GET'], [':method', 'POST'], [':path', '/'], [':path', '/index.html'],
  [':scheme', 'http'], [':scheme', 'https'], [':status', '200'], [':status', '204'], [':status', '206'],
  [':status', '304'], [':status', '400'], [':status', '404'], [':status', '500'], ['accept-charset', ''],
  ['accept-encoding', 'gzip, deflate'], ['accept-language', ''], ['accept-ranges', ''], ['accept', ''],
  ['access-control-allow-origin', ''], ['age', ''], ['allow', ''], ['authorization', ''], ['cache-control', ''],
  ['content-disposition', ''], ['content-encoding', ''], ['content-language', ''], ['content-length', ''],
  ['content-location', ''], ['content-range', ''], ['content-type', ''], ['cookie', ''], ['date', ''], ['etag', ''],
  ['expect', ''], ['expires', ''], ['from', ''], ['host', ''], ['if-match', ''], ['if-modified-since', ''],
  ['if-none-match', ''], ['if-range', ''], ['if-unmodified-since', ''], ['last-modified', ''], ['link', ''],
  ['location', ''], ['max-forwards', ''], ['proxy-authenticate', ''], ['proxy-authorization', ''], ['range', ''],
  ['referer', ''], ['refresh', ''], ['retry-after', ''], ['server', ''], ['set-cookie', ''],
  ['strict-transport-security', ''], ['transfer-encoding', ''], ['user-agent', ''], ['vary', ''], ['via', ''],
  ['www-authenticate', ''],
];

/** The size a dynamic table entry counts for: its name and value, plus 32 (RFC 7541, 4.1). */
const ENTRY_OVERHEAD = 32;

export class HpackError extends Error {
  override readonly name = 'HpackError';
}

export type HeaderField = readonly [name: string, value: string];

const latin1 = new TextDecoder('latin1');

/** One connection's decoder: its dynamic table lives as long as the connection. */
export class HpackDecoder {
  private readonly dynamic: HeaderField[] = [];
  private size = 0;
  private maxSize: number;

  constructor(maxSize = 4096) {
    this.maxSize = maxSize;
  }

  private field(index: number): HeaderField {
    const entry =
      index <= STATIC_TABLE.length ? STATIC_TABLE[index - 1] : this.dynamic[index - STATIC_TABLE.length - 1];
    if (index === 0 || entry === undefined) throw new HpackError(`invalid header index ${index}`);
    return entry;
  }

  private evict(): void {
    while (this.size > this.maxSize) {
      const [name, value] = this.dynamic.pop() as HeaderField;
      this.size -= name.length + value.length + ENTRY_OVERHEAD;
    }
  }

  private insert(field: HeaderField): void {
    this.dynamic.unshift(field);
    this.size += field[0].length + field[1].length + ENTRY_OVERHEAD;
    this.evict();
  }

  /** The fields of a complete header block, in order. */
  decode(block: Uint8Array): HeaderField[] {
    let pos = 0;
    const integer = (prefixBits: number): number => {
      if (pos >= block.length) throw new HpackError('truncated header block');
      const mask = 2 ** prefixBits - 1;
      let value = (block[pos++] as number) & mask;
      if (value < mask) return value;
      for (let shift = 0; ; shift += 7) {
        if (pos >= block.length || shift > 28) throw new HpackError('invalid integer in header block');
        const byte = block[pos++] as number;
        value += (byte & 0x7f) * 2 ** shift;
        if ((byte & 0x80) === 0) return value;
      }
    };
    const string = (): string => {
      if (pos >= block.length) throw new HpackError('truncated header block');
      const huffman = ((block[pos] as number) & 0x80) !== 0;
      const length = integer(7);
      if (pos + length > block.length) throw new HpackError('truncated header block');
      const raw = block.subarray(pos, pos + length);
      pos += length;
      try {
        return latin1.decode(huffman ? huffmanDecode(raw) : raw);
      } catch (error) {
        if (error instanceof HuffmanError) throw new HpackError(error.message);
        throw error;
      }
    };
    const fields: HeaderField[] = [];
    while (pos < block.length) {
      const first = block[pos] as number;
      if (first & 0x80) {
        fields.push(this.field(integer(7)));
      } else if (first & 0x40) {
        const index = integer(6);
        const field: HeaderField = [index === 0 ? string() : this.field(index)[0], string()];
        this.insert(field);
        fields.push(field);
      } else if (first & 0x20) {
        this.maxSize = integer(5);
        this.evict();
      } else {
        // Without indexing (0000) or never indexed (0001): a 4-bit name index.
        const index = integer(4);
        fields.push([index === 0 ? string() : this.field(index)[0], string()]);
      }
    }
    return fields;
  }
}

const encoder = new TextEncoder();

function encodeInteger(out: number[], value: number, prefixBits: number, flags: number): void {
  const mask = 2 ** prefixBits - 1;
  if (value < mask) {
    out.push(flags | value);
    return;
  }
  out.push(flags | mask);
  let rest = value - mask;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
}

/** A header block of `fields`, each a literal without indexing (a static-table name by index where there is one). */
export function encodeHeaders(fields: readonly HeaderField[]): Uint8Array {
  const out: number[] = [];
  for (const [name, value] of fields) {
    const index = STATIC_TABLE.findIndex(([staticName]) => staticName === name) + 1;
    encodeInteger(out, index, 4, 0);
    if (index === 0) {
      const bytes = encoder.encode(name);
      encodeInteger(out, bytes.length, 7, 0);
      out.push(...bytes);
    }
    const bytes = encoder.encode(value);
    encodeInteger(out, bytes.length, 7, 0);
    out.push(...bytes);
  }
  return Uint8Array.from(out);
}
