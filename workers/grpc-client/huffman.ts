/**
 * The Huffman code HPACK encodes header strings with (RFC 7541, Appendix B). The code is canonical: codes of one
 * length are consecutive and ordered by symbol, so the table is its code lengths, symbols 0 to 255 and then EOS
 * (256), and the codes follow from them.
 */

// biome-ignore format: the RFC's table, sixteen symbols a row
const CODE_LENGTHS = [
  13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,
  28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
  6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,
  5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
  13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
  7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
  15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,
  6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
  20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,
  24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
  22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,
  21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
  26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
  19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
  20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,
  26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
  30,
];

const EOS = 256;

/** Each symbol's code, assigned canonically from the lengths. */
export const HUFFMAN_CODES: readonly number[] = (() => {
  const order = CODE_LENGTHS.map((length, symbol) => ({ length, symbol })).sort(
    (a, b) => a.length - b.length || a.symbol - b.symbol,
  );
  const codes = new Array<number>(CODE_LENGTHS.length);
  let code = 0;
  let length = order[0]?.length ?? 0;
  for (const entry of order) {
    code *= 2 ** (entry.length - length);
    length = entry.length;
    codes[entry.symbol] = code;
    code += 1;
  }
  return codes;
})();

/** The decoding table: code length and code, to symbol. */
const BY_CODE = new Map<number, number>(
  HUFFMAN_CODES.map((code, symbol) => [(CODE_LENGTHS[symbol] as number) * 2 ** 30 + code, symbol]),
);

export class HuffmanError extends Error {
  override readonly name = 'HuffmanError';
}

/**
 * Decodes a Huffman-coded string. Its padding must be the most significant bits of EOS (all ones), shorter than a
 * byte; EOS itself must not appear (RFC 7541, 5.2).
 */
export function huffmanDecode(bytes: Uint8Array): Uint8Array {
  const out: number[] = [];
  let code = 0;
  let length = 0;
  for (const byte of bytes) {
    for (let bit = 7; bit >= 0; bit--) {
      code = code * 2 + ((byte >> bit) & 1);
      length++;
      const symbol = BY_CODE.get(length * 2 ** 30 + code);
      if (symbol === undefined) {
        if (length > 30) throw new HuffmanError('invalid Huffman code');
        continue;
      }
      if (symbol === EOS) throw new HuffmanError('EOS in a Huffman-coded string');
      out.push(symbol);
      code = 0;
      length = 0;
    }
  }
  if (length > 7 || code !== 2 ** length - 1) throw new HuffmanError('invalid Huffman padding');
  return Uint8Array.from(out);
}
