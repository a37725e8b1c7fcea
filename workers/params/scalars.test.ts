import { describe, expect, it } from 'vitest';
import {
  booleanParam,
  nonceParam,
  parseBoolean,
  parseNonNegativeInt32,
  parsePositiveLong,
  positiveLongParam,
} from './scalars.ts';

describe('parsePositiveLong', () => {
  it.each<[string, bigint | undefined, bigint | undefined]>([
    ['1', 1n, 1n],
    ['0', undefined, 0n],
    ['0000000000000000001', 1n, 1n],
    ['9223372036854775807', 9223372036854775807n, 9223372036854775807n],
    ['9223372036854775808', undefined, undefined],
    ['00000000000000000001', undefined, undefined],
    ['-1', undefined, undefined],
    ['+1', undefined, undefined],
    [' 1', undefined, undefined],
    ['1.0', undefined, undefined],
    ['1e3', undefined, undefined],
    ['0x10', undefined, undefined],
    ['', undefined, undefined],
  ])('%j -> %s (zero allowed: %s)', (text, positive, nonNegative) => {
    expect(parsePositiveLong(text)).toBe(positive);
    expect(parsePositiveLong(text, true)).toBe(nonNegative);
  });
});

describe('parseNonNegativeInt32', () => {
  it.each<[string, number | undefined]>([
    ['0', 0],
    ['2147483647', 2147483647],
    ['0002147483', 2147483],
    ['2147483648', undefined],
    ['00000000001', undefined],
    ['-1', undefined],
    ['x', undefined],
    ['', undefined],
  ])('%j -> %s', (text, expected) => {
    expect(parseNonNegativeInt32(text)).toBe(expected);
  });
});

describe('parseBoolean', () => {
  it.each<[string, boolean | undefined]>([
    ['true', true],
    ['TRUE', true],
    ['False', false],
    ['false', false],
    ['1', undefined],
    ['yes', undefined],
    ['', undefined],
    [' true', undefined],
  ])('%j -> %s', (text, expected) => {
    expect(parseBoolean(text)).toBe(expected);
  });
});

describe('param parsers', () => {
  it('booleanParam and nonceParam take eq only', () => {
    expect(booleanParam('true', 'eq')).toBe(true);
    expect(booleanParam('true', 'ne')).toBeUndefined();
    expect(nonceParam('3', 'eq')).toBe(3);
    expect(nonceParam('3', 'lt')).toBeUndefined();
  });
  it('positiveLongParam takes any operator', () => {
    expect(positiveLongParam('7', 'gte')).toBe(7n);
    expect(positiveLongParam('0', 'eq')).toBeUndefined();
  });
});
