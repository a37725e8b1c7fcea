import { describe, expect, it } from 'vitest';
import { parseJsonExact } from './json-exact.ts';

describe('parseJsonExact', () => {
  it('keeps integers beyond 2^53 exact wherever they stand', () => {
    expect(parseJsonExact('9223372036854775807')).toBe(9223372036854775807n);
    expect(parseJsonExact('{"a": -9223372036854775808, "b": [1, 9007199254740993]}')).toEqual({
      a: -9223372036854775808n,
      b: [1, 9007199254740993n],
    });
    expect(parseJsonExact('[{"serial":9223372036854775807}]')).toEqual([{ serial: 9223372036854775807n }]);
  });

  it('leaves safe integers, fractions and strings as JSON.parse gives them', () => {
    const text =
      '{"n": 9007199254740991, "f": 1234567890123456.5, "e": 1e30, "s": "1234567890123456789", "m": "x: 12345678901234567"}';
    expect(parseJsonExact(text)).toEqual(JSON.parse(text));
  });
});
