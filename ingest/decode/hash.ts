import { createHash } from 'node:crypto';

export const HASH_LENGTH = 48;

export function sha384(...parts: Uint8Array[]): Uint8Array {
  const hash = createHash('sha384');
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

export function fromHex(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex, 'hex'));
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function isAllZero(bytes: Uint8Array): boolean {
  return bytes.every((byte) => byte === 0);
}
