// The Worker runs with nodejs_compat (wrangler.toml), which provides node:crypto. Of it the Worker uses one
// synchronous hash (etag.ts); this is that part's type, without bringing Node's globals into the Worker's types.
declare module 'node:crypto' {
  interface Digest {
    subarray(start: number, end: number): { toString(encoding: 'base64url'): string };
  }
  interface Hash {
    update(data: Uint8Array): Hash;
    digest(): Digest;
  }
  export function createHash(algorithm: 'sha256'): Hash;
}
