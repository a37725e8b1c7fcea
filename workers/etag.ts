/**
 * A validator of the exact bytes: their length and a 64-bit hash of them (two MurmurHash3 x86_32 lanes with
 * different seeds), as `"<length base 36>-<16 hex digits>"`. A change to a body changes its tag but with odds of
 * 2^-64, and If-None-Match is the only use (no ranges). Computed in JavaScript: in workerd, SHA-256 through
 * node:crypto spent more on its stream and buffer wrappers than on hashing a page, and the awaited
 * `crypto.subtle.digest` more still (docs/performance.md).
 */
export function strongEtag(body: ArrayBuffer | Uint8Array): string {
  let bytes = body instanceof Uint8Array ? body : new Uint8Array(body);
  // Whole words are read through a 32-bit view, which needs an aligned start (the encoder's output always has one).
  if (bytes.byteOffset % 4 !== 0) bytes = bytes.slice();
  const wordCount = bytes.length >>> 2;
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, wordCount);
  let h1 = 0x9747b28c;
  let h2 = 0x5bd1e995;
  for (let i = 0; i < wordCount; i++) {
    const k = mixWord(words[i] as number);
    h1 = Math.imul(rotl(h1 ^ k, 13), 5) + 0xe6546b64;
    h2 = Math.imul(rotl(h2 ^ k, 13), 5) + 0xe6546b64;
  }
  let tail = 0;
  for (let i = bytes.length - 1; i >= wordCount * 4; i--) tail = (tail << 8) | (bytes[i] as number);
  if (bytes.length % 4 !== 0) {
    const k = mixWord(tail);
    h1 ^= k;
    h2 ^= k;
  }
  const hex = (h: number) => (finalMix(h ^ bytes.length) >>> 0).toString(16).padStart(8, '0');
  return `"${bytes.length.toString(36)}-${hex(h1)}${hex(h2)}"`;
}

const rotl = (x: number, r: number) => (x << r) | (x >>> (32 - r));

function mixWord(word: number): number {
  return Math.imul(rotl(Math.imul(word, 0xcc9e2d51), 15), 0x1b873593);
}

function finalMix(h: number): number {
  let x = h;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return x ^ (x >>> 16);
}
