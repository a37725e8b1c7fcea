import type { ParamParser } from './filters.ts';
import { MAX_LONG, parsePositiveLong } from './scalars.ts';

/**
 * A block number as the reference reads it: up to 19 decimal digits (0 to 2^63-1), or `0x` and hex digits read
 * like JavaScript's `parseInt(text, 16)`: the leading hex digits count and the rest is ignored (`0x1g` is 1), and
 * the value passes through a double, so it must print as at most 19 digits and fit in a signed 64-bit integer.
 */
export function parseBlockNumber(text: string): bigint | undefined {
  const decimal = parsePositiveLong(text, true);
  if (decimal !== undefined || !text.startsWith('0x')) return decimal;
  const digits = /^[\dA-Fa-f]+/.exec(text.slice(2))?.[0];
  if (digits === undefined) return undefined;
  const printed = String(Number.parseInt(digits, 16));
  if (!/^\d{1,19}$/.test(printed)) return undefined;
  const value = BigInt(printed);
  return value <= MAX_LONG ? value : undefined;
}

/** `block.number`: any operator but `ne`. */
export const blockNumberParam: ParamParser<bigint> = (value, operator) =>
  operator === 'ne' ? undefined : parseBlockNumber(value);

const BLOCK_HASH = /^(0x)?([\dA-Fa-f]{64}|[\dA-Fa-f]{96})$/;

/**
 * The `{hashOrNumber}` of `/blocks/{hashOrNumber}`: a 32-byte (EVM) or 48-byte (record file) hash in hex, with or
 * without `0x`, given as the lowercase hex prefix of the stored hash; or a block number in decimal.
 */
export function parseBlockHashOrNumber(text: string): { hashPrefix: string } | { number: bigint } | undefined {
  const hash = BLOCK_HASH.exec(text)?.[2];
  if (hash !== undefined) return { hashPrefix: hash.toLowerCase() };
  const number = parsePositiveLong(text, true);
  return number === undefined ? undefined : { number };
}
