/**
 * Clients may send integers beyond the signed 64-bit range of the columns: ten digits of seconds reach
 * 9999999999.999999999, which is out of range in nanoseconds, and sums such as a valid start plus its window
 * overflow too. Bound to an int8 column, such a parameter fails the statement. Every stored integer lies within the
 * range, so a bound clamped to it selects the same rows.
 */
const MIN_INT8 = -(2n ** 63n);
export const MAX_INT8 = 2n ** 63n - 1n;

export const clampInt8 = (value: bigint): bigint => (value > MAX_INT8 ? MAX_INT8 : value < MIN_INT8 ? MIN_INT8 : value);

/**
 * An inclusive upper bound of an `int8range`: none at or beyond the int8 maximum. Postgres stores ranges as
 * `[lower, upper + 1)`, which overflows there; no stored value lies above the maximum, so nothing is lost.
 */
export const inclusiveRangeUpper = (value: bigint | null): bigint | null =>
  value === null || value >= MAX_INT8 ? null : value;

/**
 * An int8 array parameter as its text form (`{1,2,3}`), to be cast with `::bigint[]`: one parameter however many
 * ids, so a statement keeps one text (and one prepared plan) whatever the size of the set.
 */
export const int8ArrayText = (values: readonly bigint[]): string => `{${values.join(',')}}`;
