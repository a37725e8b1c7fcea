import { describe, expect, it } from 'vitest';
import { firstDayOfMonthNs, optimizedSnapshotSearch, snapshotSearch } from './history.ts';

const ns = (iso: string) => BigInt(Date.parse(iso)) * 1_000_000n;
const MAX_LONG = 2n ** 63n - 1n;

describe('balance snapshot search', () => {
  it('finds the first nanosecond of a UTC month, and of months around it', () => {
    expect(firstDayOfMonthNs(ns('2023-06-10T12:34:56Z'))).toBe(ns('2023-06-01T00:00:00Z'));
    expect(firstDayOfMonthNs(ns('2023-01-10T00:00:00Z'), -1)).toBe(ns('2022-12-01T00:00:00Z'));
    expect(firstDayOfMonthNs(ns('2023-06-01T00:00:00Z') - 1n)).toBe(ns('2023-05-01T00:00:00Z'));
  });

  it('starts the search no earlier than the month before the upper end, or before now', () => {
    const now = ns('2023-06-10T00:00:00Z');
    expect(snapshotSearch({ lower: null, upper: ns('2023-03-15T00:00:00Z'), eq: [], ne: [] }, now)).toEqual({
      lower: ns('2023-02-01T00:00:00Z'),
      upper: ns('2023-03-15T00:00:00Z'),
      ne: [],
    });
    expect(snapshotSearch({ lower: null, upper: null, eq: [], ne: [5n] }, now)).toEqual({
      lower: ns('2023-05-01T00:00:00Z'),
      upper: MAX_LONG,
      ne: [5n],
    });
  });

  it('reads eq as "at or before" and gives up on a lower end above the upper end', () => {
    const now = ns('2023-06-10T00:00:00Z');
    const at = ns('2023-06-05T00:00:00Z');
    expect(snapshotSearch({ lower: null, upper: null, eq: [at], ne: [] }, now)?.upper).toBe(at);
    expect(optimizedSnapshotSearch(10n, 5n, [], now)).toBeUndefined();
  });
});
