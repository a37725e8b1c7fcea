/**
 * Scalar conversions as the reference's Java process (Spring on the JVM) performs them on query values. They
 * differ from the JavaScript process in ways that change responses: a sign is accepted, Unicode decimal digits
 * count as digits, Spring trims every whitespace character out of a number and reads `0x` as hexadecimal.
 */

export const LONG_MIN = -(2n ** 63n);
export const LONG_MAX = 2n ** 63n - 1n;
const INT_MIN = -(2n ** 31n);
const INT_MAX = 2n ** 31n - 1n;

/** Java long arithmetic wraps around instead of failing: `Long.MAX_VALUE + 1` is `Long.MIN_VALUE`. */
export const wrapLong = (value: bigint): bigint => BigInt.asIntN(64, value);

const UNICODE_DIGIT = /\p{Nd}/u;

/**
 * `Character.digit(c, radix)`: ASCII letters for radix > 10, and any Unicode decimal digit (digits come in runs of
 * ten code points starting at zero, so a digit's value is its distance from the start of its run, modulo ten).
 */
function digitValue(char: string, radix: number): number {
  const code = char.codePointAt(0) as number;
  let value = -1;
  if (code >= 0x30 && code <= 0x39) value = code - 0x30;
  else if (/[a-z]/i.test(char)) value = char.toLowerCase().charCodeAt(0) - 0x61 + 10;
  else if (UNICODE_DIGIT.test(char)) {
    let start = code;
    while (UNICODE_DIGIT.test(String.fromCodePoint(start - 1))) start--;
    value = (code - start) % 10;
  }
  return value < radix ? value : -1;
}

function parseInteger(text: string, radix: number, min: bigint, max: bigint): bigint | undefined {
  const chars = [...text];
  let negative = false;
  if (chars[0] === '-' || chars[0] === '+') {
    negative = chars[0] === '-';
    chars.shift();
  }
  if (chars.length === 0) return undefined;
  let value = 0n;
  for (const char of chars) {
    const digit = digitValue(char, radix);
    if (digit < 0) return undefined;
    value = value * BigInt(radix) + BigInt(digit);
  }
  const signed = negative ? -value : value;
  return signed >= min && signed <= max ? signed : undefined;
}

/** `Long.parseLong(text)` (and `Long.valueOf`); undefined where Java throws `NumberFormatException`. */
export const parseJavaLong = (text: string): bigint | undefined => parseInteger(text, 10, LONG_MIN, LONG_MAX);

// Character.isWhitespace: Unicode space separators except the no-break ones, and the ASCII/C0 separators.
const JAVA_WHITESPACE = /[\t\n\u000b\f\r\u001c-\u001f \u1680\u2000-\u2006\u2008-\u200a\u2028\u2029\u205f\u3000]/gu;

/** `StringUtils.isBlank`: empty or only (Java) whitespace. */
export const isJavaBlank = (text: string): boolean => text.replace(JAVA_WHITESPACE, '') === '';

/**
 * Spring's text to `int` conversion (`NumberUtils.parseNumber`): all whitespace removed anywhere, then
 * `Integer.decode` for `0x`, `0X` or `#` hexadecimal (after an optional `-`), else `Integer.valueOf`.
 */
export function parseSpringInt(text: string): number | undefined {
  const trimmed = text.replace(JAVA_WHITESPACE, '');
  const unsigned = trimmed.startsWith('-') ? trimmed.slice(1) : trimmed;
  const hexDigits = /^(0x|0X|#)/.exec(unsigned);
  if (!hexDigits) {
    const value = parseInteger(trimmed, 10, INT_MIN, INT_MAX);
    return value === undefined ? undefined : Number(value);
  }
  const digits = unsigned.slice(hexDigits[0].length);
  if (digits.startsWith('-') || digits.startsWith('+')) return undefined;
  const value = parseInteger(`${trimmed.startsWith('-') ? '-' : ''}${digits}`, 16, INT_MIN, INT_MAX);
  return value === undefined ? undefined : Number(value);
}

/** `String.split(separator)` for a one-character separator: trailing empty strings are dropped. */
export function javaSplit(text: string, separator: string): string[] {
  const parts = text.split(separator);
  if (parts.length === 1) return parts;
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** `String.trim()`: drops leading and trailing characters up to U+0020. */
export const javaTrim = (text: string): string => text.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');

const canonical = (name: string): string =>
  [...name]
    .filter((char) => /[\p{L}\p{Nd}]/u.test(char))
    .join('')
    .toLowerCase();

/**
 * Spring Boot's lenient text to enum conversion, which the Java process installs: the exact constant name (after
 * trimming), else the constant whose letters and digits match ignoring case (`block-node` is `BLOCK_NODE`).
 * Undefined for no match; null for an empty value (Spring converts it to no value).
 */
export function lenientEnum<T extends string>(text: string, constants: readonly T[]): T | null | undefined {
  const trimmed = javaTrim(text);
  if (trimmed === '') return null;
  const exact = constants.find((constant) => constant === trimmed);
  if (exact) return exact;
  const name = canonical(trimmed);
  return constants.find((constant) => canonical(constant) === name);
}

export type Direction = 'asc' | 'desc';

/** `Sort.Direction.fromString`: `asc` or `desc` in any letter case, nothing else (no trimming). */
export function parseDirection(text: string): Direction | undefined {
  const upper = text.toUpperCase();
  return upper === 'ASC' ? 'asc' : upper === 'DESC' ? 'desc' : undefined;
}
