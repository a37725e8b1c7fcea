import type { ParamParser } from './filters.ts';

export const MAX_LONG = 2n ** 63n - 1n;
export const MAX_INT32 = 2 ** 31 - 1;

/** Up to 19 decimal digits (leading zeros allowed), 1 (or 0) to 2^63-1; no sign, no spaces. */
export function parsePositiveLong(text: string, allowZero = false): bigint | undefined {
  if (!/^\d{1,19}$/.test(text)) return undefined;
  const value = BigInt(text);
  return value >= (allowZero ? 0n : 1n) && value <= MAX_LONG ? value : undefined;
}

/** Up to 10 decimal digits, 0 to 2^31-1. */
export function parseNonNegativeInt32(text: string): number | undefined {
  if (!/^\d{1,10}$/.test(text)) return undefined;
  const value = Number(text);
  return value <= MAX_INT32 ? value : undefined;
}

/** `true` or `false` in any letter case. */
export function parseBoolean(text: string): boolean | undefined {
  if (!/^(true|false)$/i.test(text)) return undefined;
  return text.toLowerCase() === 'true';
}

/** A positive long under any operator (`sequencenumber`, `serialnumber`). */
export const positiveLongParam: ParamParser<bigint> = (value) => parsePositiveLong(value);

/** A boolean that only takes `eq` (`scheduled`, `internal`, `transactions`, `balance`). */
export const booleanParam: ParamParser<boolean> = (value, operator) =>
  operator === 'eq' ? parseBoolean(value) : undefined;

/** `nonce`: an int32 >= 0, `eq` only. */
export const nonceParam: ParamParser<number> = (value, operator) =>
  operator === 'eq' ? parseNonNegativeInt32(value) : undefined;
