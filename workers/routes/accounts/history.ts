import type { SnapshotSearch, TimestampFilter } from '../../../db/queries/accounts.ts';
import { MAX_LONG } from '../../params/scalars.ts';

const NANOS_PER_MILLI = 1_000_000n;

/** The first nanosecond of the UTC month `ns` falls in, moved by `deltaMonths`. */
export function firstDayOfMonthNs(ns: bigint, deltaMonths = 0): bigint {
  const date = new Date(Number(ns / NANOS_PER_MILLI));
  return BigInt(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + deltaMonths)) * NANOS_PER_MILLI;
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
const max = (a: bigint, b: bigint) => (a > b ? a : b);

/**
 * Where the balance snapshot of a timestamp filter is looked for: `eq` reads as "at or before", and the search
 * starts no earlier than the month before the filter's upper end (or now, if that is earlier), since a snapshot
 * is taken at least monthly. Undefined when the filter leaves no room (lower above upper). Zero bounds count as
 * absent, as in the reference.
 */
export function snapshotSearch(filter: TimestampFilter, nowNs: bigint): SnapshotSearch | undefined {
  let upper = filter.upper !== null && filter.upper !== 0n ? filter.upper : MAX_LONG;
  for (const value of filter.eq) upper = min(upper, value);
  return optimizedSnapshotSearch(filter.lower ?? 0n, upper, filter.ne, nowNs);
}

/**
 * Inclusive bounds for the snapshot search, its lower bound raised to the start of the month before the upper
 * bound (or now, if earlier); undefined when lower is above upper.
 */
export function optimizedSnapshotSearch(
  lower: bigint,
  upper: bigint,
  ne: readonly bigint[],
  nowNs: bigint,
): SnapshotSearch | undefined {
  if (lower > upper) return undefined;
  return { lower: max(lower, firstDayOfMonthNs(min(upper, nowNs), -1)), upper, ne };
}
