import { createHash } from 'node:crypto';

/**
 * A strong validator of the exact bytes: the first 16 bytes of their SHA-256, base64url. Hashed synchronously
 * (node:crypto, from nodejs_compat): in workerd the awaited `crypto.subtle.digest` measured costlier per request
 * (docs/performance.md).
 */
export function strongEtag(body: ArrayBuffer | Uint8Array): string {
  const digest = createHash('sha256')
    .update(body instanceof Uint8Array ? body : new Uint8Array(body))
    .digest();
  return `"${digest.subarray(0, 16).toString('base64url')}"`;
}
