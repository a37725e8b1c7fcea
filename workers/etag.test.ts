import { describe, expect, it } from 'vitest';
import { strongEtag } from './etag.ts';

/** The tag as the edge cache made it before it hashed synchronously: WebCrypto's SHA-256, 16 bytes, base64url. */
async function webCryptoEtag(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)).subarray(0, 16);
  return `"${Buffer.from(digest).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}"`;
}

describe('strongEtag', () => {
  it('is the first 16 bytes of the SHA-256 of the exact bytes, base64url and quoted', async () => {
    const empty = new Uint8Array(0);
    // SHA-256("") = e3b0c442 98fc1c14 9afbf4c8 996fb924 …
    expect(strongEtag(empty)).toBe(`"${Buffer.from('e3b0c44298fc1c149afbf4c8996fb924', 'hex').toString('base64url')}"`);
    for (const text of ['{"blocks":[]}', '{"memo":"é ✓ \\u0000"}', 'x'.repeat(70_000)]) {
      const bytes = new TextEncoder().encode(text);
      expect(strongEtag(bytes)).toBe(await webCryptoEtag(bytes));
      expect(strongEtag(bytes.buffer)).toBe(strongEtag(bytes));
    }
  });

  it('tells bodies apart that differ in one byte', () => {
    expect(strongEtag(new TextEncoder().encode('{"a":1}'))).not.toBe(strongEtag(new TextEncoder().encode('{"a":2}')));
  });
});
