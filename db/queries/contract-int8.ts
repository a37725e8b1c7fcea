/**
 * Timestamps from clients may lie beyond the signed 64-bit range of the columns (ten digits of seconds reach
 * 9999999999.999999999); a parameter out of range would fail the statement. Every stored value lies within the
 * range, so a bound clamped to it selects the same rows.
 */
const MIN_INT8 = -(2n ** 63n);
export const MAX_INT8 = 2n ** 63n - 1n;

export const clampInt8 = (value: bigint): bigint => (value > MAX_INT8 ? MAX_INT8 : value < MIN_INT8 ? MIN_INT8 : value);
