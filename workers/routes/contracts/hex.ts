import { hex } from '../../format/values.ts';

/**
 * Hex renderings of stored bytes as the reference's contract routes write them. Inputs are bytea columns
 * (`Uint8Array`) or the same bytes already hex-encoded by SQL (`encode(x, 'hex')`, used inside JSON aggregates).
 */
export type Bytes = Uint8Array | string | null | undefined;

export const ZERO_UINT256 = `0x${'0'.repeat(64)}`;

/** The bytes as lowercase hex without prefix; `undefined` for null. Hex text must have an even length. */
export function hexOf(value: Bytes): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return /^([0-9a-fA-F]{2})*$/.test(value) ? value : '';
  return hex(value);
}

/** `0x` and the bytes, left-padded with zeros to `pad` digits; `0x` alone for null or empty bytes. */
export function prefixedHex(value: Bytes, pad = 0): string {
  const text = hexOf(value);
  if (!text) return '0x';
  return `0x${text.padStart(pad, '0')}`;
}

/** Ethereum's "unformatted data" form: an even number of digits (`0x` for nothing). */
export const dataHex = (value: Bytes): string => prefixedHex(value, 2);

/**
 * Ethereum's "quantity" form as the reference derives it from bytes: the `0x`-prefixed hex with one leading zero
 * digit dropped (`0x012a` → `0x12a`; `0x0012` → `0x012`, only the first zero goes).
 */
export function quantityHex(value: Bytes | bigint): string {
  return dropLeadingZero(typeof value === 'bigint' ? `0x${value.toString(16)}` : prefixedHex(value));
}

/** `0x0…` → `0x…` (one digit), unless that would leave `0x` alone. */
export const dropLeadingZero = (text: string): string =>
  text.length > 3 && text.startsWith('0x0') ? `0x${text.slice(3)}` : text;

/** A 32-byte word (`0x` + 64 digits); empty bytes are the zero word, null stays null. */
export function uint256Hex(value: Bytes): string | null {
  if (value === null || value === undefined) return null;
  const text = hexOf(value) ?? '';
  return text === '' ? ZERO_UINT256 : `0x${text.padStart(64, '0')}`;
}

/** Text that is already hex (a record file hash), with `0x` added unless present; `0x` for null or empty. */
export function withHexPrefix(text: string | null | undefined): string {
  if (!text) return '0x';
  return text.startsWith('0x') ? text : `0x${text}`;
}
