import { describe, expect, it } from 'vitest';
import { formatEntityId } from '../params/entity-id.ts';
import { base64, entityId } from './values.ts';

describe('entityId', () => {
  it('writes an int8 text as formatEntityId writes its value, on either side of the shard-0 realm-0 shortcut', () => {
    const values = [1n, 2n, 98n, 1001n, 2n ** 38n - 1n, 2n ** 38n, 2n ** 38n + 5n, (1n << 54n) | (2n << 38n) | 7n, 0n];
    values.push(999_999_999_999n, 1_000_000_000_000n);
    for (const value of values) {
      const expected = formatEntityId(value);
      expect(entityId(value.toString()), value.toString()).toBe(expected);
      expect(entityId(value), value.toString()).toBe(expected);
      if (value <= BigInt(Number.MAX_SAFE_INTEGER)) expect(entityId(Number(value)), value.toString()).toBe(expected);
    }
  });

  it('keeps null for a missing id', () => {
    expect(entityId(null)).toBeNull();
    expect(entityId(undefined)).toBeNull();
  });
});

describe('base64', () => {
  it('encodes as Buffer does, across the chunk boundary', () => {
    for (const size of [0, 1, 2, 3, 48, 0x8000 - 1, 0x8000, 0x8000 + 2, 100_000]) {
      const bytes = new Uint8Array(size).map((_, i) => (i * 37 + 11) & 255);
      expect(base64(bytes), String(size)).toBe(Buffer.from(bytes).toString('base64'));
    }
    expect(base64(null)).toBeNull();
  });
});
