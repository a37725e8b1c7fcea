/**
 * The Ethereum hash of a transaction whose sender moved the call data into a file (the body's `call_data`, the
 * signed bytes carrying empty data), when the record carries no `ethereum_hash`. As the importer's
 * `AbstractEthereumTransactionParser.getHash`: the signed transaction re-encoded with the file's contents as its
 * data, hashed with Keccak-256; empty bytes when the file is a system file, has no contents, does not decode, or
 * the transaction has an access list (the importer does not re-encode those).
 */

import { keccak_256 } from '@noble/hashes/sha3.js';
import { FormatError } from '../decode/byte-reader.ts';
import { decodeRlp, encodeRlp, type RlpItem } from '../decode/rlp.ts';

/** Files up to 0.0.999 are system files, whose contents the importer's file data service never returns. */
export const LAST_SYSTEM_FILE_NUM = 999n;

/** A transaction whose hash waits for its call data file (read back once the file's rows are written). */
export interface CallDataFromFile {
  readonly consensusTimestamp: bigint;
  readonly payerAccountId: bigint;
  readonly fileId: bigint;
  /** The signed transaction as the body carries it. */
  readonly data: Uint8Array;
}

const HEX_WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

function hexDigit(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  return -1;
}

/**
 * A call data file's contents as the importer decodes them (`Utility.decodeBytecode`): hex text after an optional
 * `0x`, spaces, tabs and line breaks skipped, either case; undefined for any other byte or an odd digit count.
 */
export function decodeHexContents(contents: Uint8Array): Uint8Array | undefined {
  const text = contents[0] === 0x30 && contents[1] === 0x78 ? contents.subarray(2) : contents;
  const digits: number[] = [];
  for (const byte of text) {
    if (HEX_WHITESPACE.has(byte)) continue;
    const digit = hexDigit(byte);
    if (digit < 0) return undefined;
    digits.push(digit);
  }
  if (digits.length % 2 === 1) return undefined;
  const out = new Uint8Array(digits.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = ((digits[2 * i] as number) << 4) | (digits[2 * i + 1] as number);
  return out;
}

/** Where the data and the access list sit in each type's field list. */
const LAYOUT: Readonly<Record<number, { data: number; accessList?: number }>> = {
  0: { data: 5 },
  1: { data: 6, accessList: 7 },
  2: { data: 7, accessList: 8 },
  4: { data: 7, accessList: 8 },
};

/** Keccak-256 of the signed transaction with `callData` as its data; empty bytes when it cannot be re-encoded. */
export function hashWithCallData(signed: Uint8Array, callData: Uint8Array): Uint8Array {
  const typed = (signed[0] ?? 0xc0) < 0xc0;
  const layout = LAYOUT[typed ? (signed[0] as number) : 0];
  if (!layout) return new Uint8Array();
  let fields: RlpItem;
  try {
    fields = decodeRlp(typed ? signed.subarray(1) : signed);
  } catch (error) {
    if (error instanceof FormatError) return new Uint8Array();
    throw error;
  }
  if (fields instanceof Uint8Array || fields.length <= layout.data) return new Uint8Array();
  const accessList = layout.accessList === undefined ? undefined : fields[layout.accessList];
  if (accessList !== undefined && (accessList instanceof Uint8Array || accessList.length > 0)) return new Uint8Array();
  const restored = encodeRlp(fields.map((field, i) => (i === layout.data ? callData : field)));
  return keccak_256(typed ? Uint8Array.of(signed[0] as number, ...restored) : restored);
}
