import { type Bytes, hexOf, quantityHex } from './hex.ts';

/** One tinybar is 10^10 weibar. */
export const WEIBARS_PER_TINYBAR = 10_000_000_000n;

/**
 * A weibar amount stored as big-endian bytes, in tinybar: read as two's complement when `signed` (the value of an
 * Ethereum transaction), else unsigned, then divided with truncation toward zero. Null for null or empty bytes.
 */
export function weibarToTinybar(value: Bytes, signed: boolean): bigint | null {
  const text = hexOf(value);
  if (!text) return null;
  let amount = BigInt(`0x${text}`);
  if (signed && Number.parseInt(text.slice(0, 2), 16) & 0x80) amount -= 1n << BigInt(text.length * 4);
  return amount / WEIBARS_PER_TINYBAR;
}

/** A weibar gas price in tinybar, as a quantity (`0x` for none). */
export function weibarToTinybarHex(value: Bytes): string {
  const tinybar = weibarToTinybar(value, false);
  return tinybar === null ? '0x' : quantityHex(tinybar);
}

/**
 * The stored weibar bytes as an unsigned integer (`hbar=false`). The importer stores zero as one 0x00 byte; the
 * reference parses `0x` + hex and so fails on null or empty bytes, which the importer never writes: for those we
 * answer what it answers for the zero it would have written, 0.
 */
export function weibarAmount(value: Bytes): bigint {
  const text = hexOf(value);
  return text ? BigInt(`0x${text}`) : 0n;
}
