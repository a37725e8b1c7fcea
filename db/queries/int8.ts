/**
 * Clients may send integers beyond the signed 64-bit range of the columns: ten digits of seconds reach
 * 9999999999.999999999, which is out of range in nanoseconds, and sums such as a valid start plus its window
 * overflow too. Bound to an int8 column, such a parameter fails the statement. Every stored integer lies within the
 * range, so a bound clamped to it selects the same rows.
 */
const MIN_INT8 = -(2n ** 63n);
export const MAX_INT8 = 2n ** 63n - 1n;

export const clampInt8 = (value: bigint): bigint => (value > MAX_INT8 ? MAX_INT8 : value < MIN_INT8 ? MIN_INT8 : value);
