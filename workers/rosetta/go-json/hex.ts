/**
 * Go's `encoding/hex` decoding, with its errors word for word: the Mesh SDK decodes the `hex_bytes` of public keys,
 * signing payloads and signatures with it, and the reference its transactions.
 */
import { bytesFromHex } from '../../../db/bytea.ts';

/** `%#U` of a byte, as Go's hex errors print the byte they stopped at. */
function goRune(byte: number): string {
  const code = `U+${byte.toString(16).toUpperCase().padStart(4, '0')}`;
  const char = String.fromCharCode(byte);
  // Go quotes the character when strconv.IsPrint holds: not for controls, U+00A0 and U+00AD.
  return byte < 0x20 || (byte >= 0x7f && byte <= 0xa0) || byte === 0xad ? code : `${code} '${char}'`;
}

const isHexDigit = (byte: number) =>
  (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66);

/**
 * Go's `hex.DecodeString`: the bytes, or the error text Go gives (`encoding/hex: invalid byte: U+0078 'x'`,
 * `encoding/hex: odd length hex string`), checked pair by pair as Go checks them.
 */
export function goHexDecode(text: string): Uint8Array | string {
  const bytes = new TextEncoder().encode(text);
  for (let j = 1; j < bytes.length; j += 2) {
    for (const byte of [bytes[j - 1] as number, bytes[j] as number]) {
      if (!isHexDigit(byte)) return `encoding/hex: invalid byte: ${goRune(byte)}`;
    }
  }
  if (bytes.length % 2 === 1) {
    const last = bytes[bytes.length - 1] as number;
    return isHexDigit(last) ? 'encoding/hex: odd length hex string' : `encoding/hex: invalid byte: ${goRune(last)}`;
  }
  return bytesFromHex(text);
}
