/**
 * RFC 4648 base32 (`A-Z2-7`), as the reference writes account aliases: encoded without padding, and decoded
 * strictly (the bits left over after the last whole byte must be fewer than five and all zero).
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** The alias as the API shows it; null stays null. */
export function base32Encode(bytes: Uint8Array | null | undefined): string | null {
  if (bytes === null || bytes === undefined) return null;
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(buffer >> bits) & 31];
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

/** The bytes of unpadded upper-case base32 text, or undefined when the text is not a whole number of bytes. */
export function base32Decode(text: string): Uint8Array | undefined {
  const out = new Uint8Array(Math.floor((text.length * 5) / 8));
  let buffer = 0;
  let bits = 0;
  let written = 0;
  for (const char of text) {
    const value = ALPHABET.indexOf(char);
    if (value < 0) return undefined;
    buffer = ((buffer << 5) | value) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out[written++] = (buffer >> bits) & 0xff;
    }
  }
  if (bits >= 5 || ((buffer << (8 - bits)) & 0xff) !== 0) return undefined;
  return out;
}
