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

// Character.isWhitespace: the ASCII and C0 separators, and Unicode space separators except the no-break ones.
const JAVA_WHITESPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005,
  0x2006, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x205f, 0x3000,
]);

const removeWhitespace = (text: string): string =>
  [...text].filter((char) => !JAVA_WHITESPACE.has(char.codePointAt(0) as number)).join('');

export const isJavaBlank = (text: string): boolean => removeWhitespace(text) === '';

/**
 * Spring's text to `int` conversion (`NumberUtils.parseNumber`): all whitespace removed anywhere, then
 * `Integer.decode` for `0x`, `0X` or `#` hexadecimal (after an optional `-`), else `Integer.valueOf`.
 */
export function parseSpringInt(text: string): number | undefined {
  const trimmed = removeWhitespace(text);
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
export function javaTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end--;
  return text.slice(start, end);
}

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
