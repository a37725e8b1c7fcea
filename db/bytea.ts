import { types } from '@neondatabase/serverless';

/**
 * Bytes to and from hex and base64 for the Worker and its queries. Uint8Array's own `fromHex`, `toHex` and
 * `toBase64` do it natively where the runtime has them (workerd does); Node 22, which runs the tests, has not, and
 * gets the loops.
 */
const nativeFromHex = (Uint8Array as unknown as { fromHex?: (hex: string) => Uint8Array }).fromHex;
const native = Uint8Array.prototype as {
  toBase64?: (this: Uint8Array) => string;
  toHex?: (this: Uint8Array) => string;
};

const NIBBLES = new Uint8Array(128);
for (let i = 0; i < 10; i++) NIBBLES[48 + i] = i;
for (let i = 0; i < 6; i++) {
  NIBBLES[65 + i] = 10 + i;
  NIBBLES[97 + i] = 10 + i;
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** Bytes from hex digits: an even count, no prefix, either case. */
export function bytesFromHex(hex: string): Uint8Array {
  if (nativeFromHex) return nativeFromHex(hex);
  const bytes = new Uint8Array(hex.length >>> 1);
  for (let i = 0, j = 0; i < bytes.length; i++, j += 2) {
    bytes[i] = ((NIBBLES[hex.charCodeAt(j)] ?? 0) << 4) | (NIBBLES[hex.charCodeAt(j + 1)] ?? 0);
  }
  return bytes;
}

/** The bytes as lowercase hex digits, no prefix. */
export function hexOfBytes(bytes: Uint8Array): string {
  if (native.toHex) return native.toHex.call(bytes);
  let out = '';
  for (const byte of bytes) out += HEX[byte];
  return out;
}

/** The bytes in standard base64, padded. */
export function base64OfBytes(bytes: Uint8Array): string {
  return native.toBase64 ? native.toBase64.call(bytes) : btoa(binaryString(bytes));
}

/**
 * The bytes as a string of char codes 0-255 (what btoa reads). `apply` takes the typed array as it is, where a
 * spread would iterate it: six to eight times slower on the sizes of hashes and messages.
 */
function binaryString(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000) as unknown as number[]);
  }
  return binary;
}

const parseEscapedBytea = types.getTypeParser(17, 'text') as (text: string) => Uint8Array;

/**
 * A bytea column's text (`\x` and hex digits, Postgres' default output) as bytes. The driver's own parser goes
 * through a Buffer polyfill in the Worker, which costs more than the rest of a row; the escape format of old
 * servers still goes to it.
 */
export function parseBytea(text: string): Uint8Array {
  if (text.charCodeAt(0) !== 92 || text.charCodeAt(1) !== 120) return parseEscapedBytea(text);
  return bytesFromHex(text.slice(2));
}
