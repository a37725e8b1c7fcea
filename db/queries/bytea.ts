import { type SQL, sql } from 'drizzle-orm';

/**
 * bytea parameters go as `\x…` text cast to bytea: the driver's binary parameter handling differs between runtimes
 * (Node's pg, Neon's HTTP protocol in workerd).
 */
export const hexBytea = (hex: string): SQL => sql`${`\\x${hex}`}::bytea`;

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

export function bytesBytea(bytes: Uint8Array): SQL {
  let hex = '';
  for (const byte of bytes) hex += HEX[byte];
  return hexBytea(hex);
}
