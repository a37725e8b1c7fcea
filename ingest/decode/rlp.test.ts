import { describe, expect, it } from 'vitest';
import { FormatError } from './byte-reader.ts';
import { decodeEthereumTransaction } from './ethereum-transaction.ts';
import { decodeRlp, encodeRlp, type RlpItem } from './rlp.ts';

/** `depth` lists, each holding the next, the innermost empty: `[[[…]]]`. */
function nested(depth: number): Uint8Array {
  const prefixes: number[][] = [];
  let length = 0;
  for (let i = 0; i < depth; i++) {
    const n = length;
    const prefix = n < 56 ? [0xc0 + n] : n < 256 ? [0xf8, n] : [0xf9, n >> 8, n & 0xff];
    prefixes.push(prefix);
    length += prefix.length;
  }
  if (length >= 65_536) throw new Error('test payload too large');
  return new Uint8Array(prefixes.reverse().flat());
}

function depthOf(item: RlpItem): number {
  return item instanceof Uint8Array ? 0 : 1 + Math.max(0, ...item.map(depthOf));
}

describe('RLP nesting', () => {
  it('decodes lists nested 64 deep', () => {
    expect(depthOf(decodeRlp(nested(64)))).toBe(64);
  });

  it('refuses deeper lists with a FormatError, however deep (no stack overflow)', () => {
    expect(() => decodeRlp(nested(65))).toThrow(FormatError);
    const deep = nested(20_000);
    expect(() => decodeRlp(deep)).toThrow(FormatError);
    expect(() => decodeEthereumTransaction(deep)).toThrow(FormatError);
    expect(() => decodeEthereumTransaction(new Uint8Array([2, ...deep]))).toThrow(FormatError);
  });
});

describe('RLP encoding', () => {
  const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

  it('writes the yellow paper examples', () => {
    const text = (s: string) => new TextEncoder().encode(s);
    expect(hex(encodeRlp(text('dog')))).toBe('83646f67');
    expect(hex(encodeRlp([text('cat'), text('dog')]))).toBe('c88363617483646f67');
    expect(hex(encodeRlp(new Uint8Array()))).toBe('80');
    expect(hex(encodeRlp([]))).toBe('c0');
    expect(hex(encodeRlp(Uint8Array.of(0x0f)))).toBe('0f');
    expect(hex(encodeRlp(Uint8Array.of(0x04, 0x00)))).toBe('820400');
    expect(hex(encodeRlp([[], [[]], [[], [[]]]]))).toBe('c7c0c1c0c3c0c1c0');
    const lorem = text('Lorem ipsum dolor sit amet, consectetur adipisicing elit');
    expect(hex(encodeRlp(lorem))).toBe(`b838${hex(lorem)}`);
  });

  it('gives back the bytes it decoded, long lengths included', () => {
    const long = new Uint8Array(300).fill(7);
    const encoded = encodeRlp([long, [Uint8Array.of(1), long], new Uint8Array()]);
    expect(hex(encodeRlp(decodeRlp(encoded)))).toBe(hex(encoded));
    expect(hex(encoded.subarray(0, 3))).toBe('f90263');
  });
});
