import { type SQL, sql } from 'drizzle-orm';
import { hexOfBytes } from '../bytea.ts';

/**
 * bytea parameters go as `\x…` text cast to bytea: the driver's binary parameter handling differs between runtimes
 * (Node's pg, Neon's HTTP protocol in workerd).
 */
export const hexBytea = (hex: string): SQL => sql`${`\\x${hex}`}::bytea`;

export const bytesBytea = (bytes: Uint8Array): SQL => hexBytea(hexOfBytes(bytes));
