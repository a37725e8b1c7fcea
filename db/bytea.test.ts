import { types } from '@neondatabase/serverless';
import { describe, expect, it } from 'vitest';
import { bytesFromHex, hexOfBytes, parseBytea } from './bytea.ts';

describe('parseBytea', () => {
  it('decodes the hex output format as the driver does', () => {
    const driver = types.getTypeParser(17, 'text') as (text: string) => Uint8Array;
    for (const text of ['\\x', '\\x00', '\\xdeadbeef', '\\xDEADBEEF', `\\x${'0123456789abcdef'.repeat(40)}`]) {
      expect([...parseBytea(text)], text).toEqual([...driver(text)]);
    }
  });

  it('leaves the escape format to the driver', () => {
    expect([...parseBytea('ab\\\\c\\001')]).toEqual([0x61, 0x62, 0x5c, 0x63, 0x01]);
  });
});

describe('bytesFromHex and hexOfBytes', () => {
  it('round-trip every byte value, either case in', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const text = hexOfBytes(all);
    expect(text).toBe(Buffer.from(all).toString('hex'));
    expect([...bytesFromHex(text)]).toEqual([...all]);
    expect([...bytesFromHex(text.toUpperCase())]).toEqual([...all]);
    expect([...bytesFromHex('')]).toEqual([]);
  });
});
