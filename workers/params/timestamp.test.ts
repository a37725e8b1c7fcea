import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.ts';
import type { Filter, Operator } from './filters.ts';
import {
  formatTimestamp,
  looseTimestampRange,
  parseTimestamp,
  type TimestampRangeOptions,
  timestampRange,
} from './timestamp.ts';

describe('parseTimestamp', () => {
  it.each<[string, bigint | undefined]>([
    ['1234567890', 1234567890000000000n],
    ['1234567890.000000001', 1234567890000000001n],
    ['1234567890.5', 1234567890500000000n],
    ['1234567890.123', 1234567890123000000n],
    ['0', 0n],
    ['0.0', 0n],
    ['0000000001.1', 1100000000n],
    ['9999999999.999999999', 9999999999999999999n],
    ['12345678901', undefined],
    ['1234567890.0000000001', undefined],
    ['1234567890.', undefined],
    ['.5', undefined],
    ['-1', undefined],
    ['-1.2', undefined],
    ['1e9', undefined],
    [' 1', undefined],
    ['1 ', undefined],
    ['0x0001', undefined],
    ['167654.000123456.2', undefined],
    ['now', undefined],
    ['', undefined],
  ])('%j -> %s', (text, expected) => {
    expect(parseTimestamp(text)).toBe(expected);
  });
});

describe('formatTimestamp', () => {
  it.each<[bigint, string]>([
    [1234567890000000001n, '1234567890.000000001'],
    [1234567890500000000n, '1234567890.500000000'],
    [5n, '0.000000005'],
    [0n, '0.000000000'],
    [9223372036854775807n, '9223372036.854775807'],
  ])('%s -> %s', (ns, expected) => {
    expect(formatTimestamp(ns)).toBe(expected);
  });

  it('takes another separator (transaction ids)', () => {
    expect(formatTimestamp(1234567890000000001n, '-')).toBe('1234567890-000000001');
  });

  it('round-trips with parseTimestamp', () => {
    for (const text of ['0.000000001', '1680000000.123456789', '9999999999.999999999']) {
      expect(formatTimestamp(parseTimestamp(text) ?? -1n)).toBe(text);
    }
  });
});

describe('timestampRange', () => {
  const options: TimestampRangeOptions = { maxRange: '7d', maxRangeNs: 604_800_000_000_000n };
  const f = (operator: Operator, value: bigint): Filter<'timestamp', bigint> => ({ key: 'timestamp', operator, value });
  const messageOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      if (error instanceof ApiError) return `${error.status} ${error.messages[0]?.message}`;
      throw error;
    }
    return undefined;
  };

  it.each<[string, Filter<'timestamp', bigint>[], Partial<TimestampRangeOptions>, string]>([
    ['no filter when one is required', [], {}, '400 No timestamp range or eq operator provided'],
    ['ne', [f('ne', 5n)], {}, '400 Not equals operator not supported for timestamp param'],
    [
      'two lower bounds',
      [f('gt', 1n), f('gte', 2n), f('lt', 10n)],
      {},
      '400 Multiple gt or gte operators not permitted for timestamp param',
    ],
    [
      'two upper bounds',
      [f('gt', 1n), f('lt', 10n), f('lte', 9n)],
      {},
      '400 Multiple lt or lte operators not permitted for timestamp param',
    ],
    [
      'eq with a bound',
      [f('eq', 5n), f('lt', 10n)],
      {},
      '400 Cannot combine eq with ne, gt, gte, lt, or lte for timestamp param',
    ],
    [
      'eq with ne when ne is allowed',
      [f('eq', 5n), f('ne', 6n)],
      { allowNe: true },
      '400 Cannot combine eq with ne, gt, gte, lt, or lte for timestamp param',
    ],
    ['a lone bound', [f('gte', 5n)], {}, '400 Timestamp range must have gt (or gte) and lt (or lte), or eq operator'],
    [
      'an empty range',
      [f('gt', 5n), f('lte', 5n)],
      {},
      '400 Timestamp range by the lower and upper bounds must be positive and within 7d',
    ],
    [
      'a range wider than the maximum',
      [f('gte', 0n), f('lte', 604_800_000_000_000n)],
      {},
      '400 Timestamp range by the lower and upper bounds must be positive and within 7d',
    ],
  ])('refuses %s', (_name, filters, overrides, expected) => {
    expect(messageOf(() => timestampRange(filters, { ...options, ...overrides }))).toBe(expected);
  });

  it.each<[string, Filter<'timestamp', bigint>[], Partial<TimestampRangeOptions>, object]>([
    ['no filter when optional', [], { required: false }, { lower: null, upper: null, empty: false, eq: [], ne: [] }],
    ['gt / lt as inclusive bounds', [f('gt', 1n), f('lt', 10n)], {}, { lower: 2n, upper: 9n, empty: false }],
    [
      'a range of exactly the maximum',
      [f('gte', 0n), f('lt', 604_800_000_000_000n)],
      {},
      { lower: 0n, upper: 604_799_999_999_999n },
    ],
    ['distinct eq values', [f('eq', 5n), f('eq', 6n), f('eq', 5n)], {}, { eq: [5n, 6n], lower: null, upper: null }],
    ['an open range when allowed', [f('gte', 5n)], { allowOpenRange: true }, { lower: 5n, upper: null }],
    ['ne when allowed', [f('gte', 1n), f('lte', 9n), f('ne', 5n)], { allowNe: true }, { ne: [5n] }],
    [
      'repeated bounds when not strict, tightest wins',
      [f('gt', 1n), f('gte', 5n), f('lt', 10n), f('lte', 7n)],
      { strict: false },
      { lower: 5n, upper: 7n },
    ],
    [
      'an empty range when range validation is off',
      [f('gt', 5n), f('lte', 5n)],
      { validateRange: false },
      { lower: 6n, upper: 5n, empty: true },
    ],
  ])('accepts %s', (_name, filters, overrides, expected) => {
    expect(timestampRange(filters, { ...options, ...overrides })).toMatchObject(expected);
  });
});

describe('looseTimestampRange', () => {
  const query = { maxTimestampRange: '7d', maxTimestampRangeNs: 604_800_000_000_000 };
  const f = (operator: Operator, value: bigint): Filter<'timestamp', bigint> => ({ key: 'timestamp', operator, value });

  it('takes no filter, a lone bound, ne, repeated bounds and a range wider than the cap', () => {
    expect(looseTimestampRange([], query)).toMatchObject({ lower: null, upper: null, empty: false });
    expect(looseTimestampRange([f('gte', 5n)], query)).toMatchObject({ lower: 5n, upper: null });
    expect(looseTimestampRange([f('gt', 1n), f('gt', 3n), f('ne', 7n)], query)).toMatchObject({ lower: 4n, ne: [7n] });
    expect(looseTimestampRange([f('gte', 0n), f('lte', 10n ** 18n)], query)).toMatchObject({ empty: false });
  });

  it('says an empty range is empty rather than refusing it', () => {
    expect(looseTimestampRange([f('gt', 10n), f('lt', 5n)], query).empty).toBe(true);
  });
});
