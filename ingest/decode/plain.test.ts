import Long from 'long';
import { describe, expect, it } from 'vitest';
import { toPlain } from './plain.ts';

describe('toPlain', () => {
  it.each([
    ['0', false],
    ['1', false],
    ['-1', false],
    ['4294967296', false],
    ['9223372036854775807', false],
    ['-9223372036854775808', false],
    ['18446744073709551615', true],
    ['2147483648', true],
  ])('turns the 64-bit integer %s into the same bigint', (text, unsigned) => {
    expect(toPlain(Long.fromString(text, unsigned))).toBe(BigInt(text));
  });

  it('keeps bytes and drops nothing but absent fields', () => {
    const bytes = new Uint8Array([1, 2]);
    expect(toPlain({ a: bytes, b: [Long.fromInt(3)], c: { d: 'x' } })).toEqual({ a: bytes, b: [3n], c: { d: 'x' } });
  });
});
