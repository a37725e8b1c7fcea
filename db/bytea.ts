import { types } from '@neondatabase/serverless';

const NIBBLES = new Uint8Array(128);
for (let i = 0; i < 10; i++) NIBBLES[48 + i] = i;
for (let i = 0; i < 6; i++) {
  NIBBLES[65 + i] = 10 + i;
  NIBBLES[97 + i] = 10 + i;
}

const parseEscapedBytea = types.getTypeParser(17, 'text') as (text: string) => Uint8Array;

/** `Uint8Array.fromHex` where the runtime has it (workerd does; Node 22, which runs the tests, does not). */
const nativeFromHex = (Uint8Array as unknown as { fromHex?: (hex: string) => Uint8Array }).fromHex;

/**
 * A bytea column's text (`\x` and hex digits, Postgres' default output) as bytes. The driver's own parser goes
 * through a Buffer polyfill in the Worker, which costs more than the rest of a row; the escape format of old
 * servers still goes to it.
 */
export function parseBytea(text: string): Uint8Array {
  if (text.charCodeAt(0) !== 92 || text.charCodeAt(1) !== 120) return parseEscapedBytea(text);
  if (nativeFromHex) return nativeFromHex(text.slice(2));
  const bytes = new Uint8Array((text.length - 2) >>> 1);
  for (let i = 0, j = 2; i < bytes.length; i++, j += 2) {
    bytes[i] = ((NIBBLES[text.charCodeAt(j)] ?? 0) << 4) | (NIBBLES[text.charCodeAt(j + 1)] ?? 0);
  }
  return bytes;
}
