import { describe, expect, it } from 'vitest';
import { legacyBoolean, legacyOrder } from './legacy-order.ts';
import { publicKeyParam } from './public-key.ts';

const KEY = '3c3d546321ff6f63d701d2ec5c277095874e19f4a235bee1e6bb19258bf362be';

describe('account.publickey', () => {
  it('reads ED25519, ECDSA and DER-wrapped ED25519 keys as the entity column stores them', () => {
    expect(publicKeyParam(KEY, 'eq')).toBe(KEY);
    expect(publicKeyParam(`0x${KEY.toUpperCase()}`, 'eq')).toBe(KEY);
    expect(publicKeyParam(`02${KEY}`, 'gt')).toBe(`02${KEY}`);
    expect(publicKeyParam(`302a300506032b6570032100${KEY}`, 'eq')).toBe(KEY);
  });

  it('refuses other lengths and non-hex text', () => {
    expect(publicKeyParam('abcdef', 'eq')).toBeUndefined();
    expect(publicKeyParam(`${KEY}0`, 'eq')).toBeUndefined();
    expect(publicKeyParam('-2', 'eq')).toBeUndefined();
  });
});

describe('legacy order and boolean values', () => {
  it('takes a single exact order value only', () => {
    expect(legacyOrder('?order=desc', 100, 'asc')).toBe('desc');
    expect(legacyOrder('?order=DESC', 100, 'asc')).toBe('desc');
    expect(legacyOrder('?order=desc&order=desc', 100, 'asc')).toBe('asc');
    expect(legacyOrder('?order=eq:desc', 100, 'asc')).toBe('asc');
    expect(legacyOrder('', 100, 'desc')).toBe('desc');
  });

  it('reads the last boolean value, where an operator makes it false', () => {
    expect(legacyBoolean('?balance=false', 100, 'balance', true)).toBe(false);
    expect(legacyBoolean('?balance=false&balance=TRUE', 100, 'balance', true)).toBe(true);
    expect(legacyBoolean('?balance=eq:true', 100, 'balance', true)).toBe(false);
    expect(legacyBoolean('', 100, 'balance', true)).toBe(true);
  });
});
