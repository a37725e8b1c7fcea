import { describe, expect, it } from 'vitest';
import { FormatError } from './byte-reader.ts';
import { decodeEthereumTransaction } from './ethereum-transaction.ts';
import { decodeRlp, type RlpItem } from './rlp.ts';

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
