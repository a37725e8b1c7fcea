import { createHash } from 'node:crypto';

export const HASH_LENGTH = 48;

export function sha384(...parts: Uint8Array[]): Uint8Array {
  const hash = createHash('sha384');
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
}
