/**
 * Block files: `<19-digit number>.blk[.zstd|.gz]`, in a bucket split into 4-digit folders
 * (`0000/0000/0002/6591/040.blk.zstd` for block 26591040). Content is a `Block` protobuf, compressed or not;
 * the reader is codec-agnostic and sniffs the compression from the magic bytes.
 */
import { gunzipSync, zstdDecompressSync } from 'node:zlib';
import { blockTypes } from '../../proto/block.ts';
import { FormatError } from './byte-reader.ts';

export const BLOCK_EXTENSIONS = ['.blk.zstd', '.blk.gz', '.blk'] as const;
const DIGITS = 19;

export function paddedBlockNumber(number: bigint): string {
  return number.toString().padStart(DIGITS, '0');
}

/** `0000000000026591040.blk` for block 26591040 (the record_file name of a native block). */
export function blockFileName(number: bigint, extension = '.blk'): string {
  return `${paddedBlockNumber(number)}${extension}`;
}

/** The bucket key of a block below its `block/` folder: `0000/0000/0002/6591/040.blk.zstd`. */
export function splitBlockPath(number: bigint, extension: string): string {
  const d = paddedBlockNumber(number);
  return `${d.slice(0, 4)}/${d.slice(4, 8)}/${d.slice(8, 12)}/${d.slice(12, 16)}/${d.slice(16)}${extension}`;
}

/** The block number a key names, in either layout; undefined for keys that are not block files. */
export function blockNumberOfKey(key: string): bigint | undefined {
  const match = /(?:^|\/)((?:\d{4}\/){4}\d{3}|\d{19})\.blk(?:\.zstd|\.gz)?$/.exec(key);
  if (!match?.[1]) return undefined;
  const digits = match[1].replaceAll('/', '');
  return digits.length === DIGITS ? BigInt(digits) : undefined;
}

const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd];

export function decompressBlock(bytes: Uint8Array): Uint8Array {
  try {
    if (ZSTD_MAGIC.every((b, i) => bytes[i] === b)) return new Uint8Array(zstdDecompressSync(bytes));
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) return new Uint8Array(gunzipSync(bytes));
  } catch (error) {
    throw new FormatError(`cannot decompress block: ${(error as Error).message}`);
  }
  return bytes;
}

/** The serialized BlockItems of a (decompressed) Block, each exactly as it was on the wire. */
export function splitBlockItems(block: Uint8Array): Uint8Array[] {
  try {
    return (blockTypes().Block.decode(block) as unknown as { items: Uint8Array[] }).items;
  } catch (error) {
    throw new FormatError(`not a Block protobuf: ${(error as Error).message}`);
  }
}
