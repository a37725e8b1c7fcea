import { describe, expect, it } from 'vitest';
import { stringifyJson } from './json.ts';

describe('stringifyJson', () => {
  it('writes bigint values as exact integer literals, nested or not', () => {
    expect(stringifyJson({ amount: 9223372036854775807n, list: [-9223372036854775808n, 1n], n: 2, s: '3' })).toBe(
      '{"amount":9223372036854775807,"list":[-9223372036854775808,1],"n":2,"s":"3"}',
    );
    expect(stringifyJson(0n)).toBe('0');
  });

  it('writes the same digits on either side of 2^53', () => {
    for (const value of [2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n) + 1n, -(2n ** 53n) - 1n, 10n ** 21n]) {
      expect(stringifyJson({ value }), String(value)).toBe(`{"value":${value}}`);
    }
  });
});
