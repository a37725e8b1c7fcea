/** Reads block files back item by item and recomputes their root hash, for tests. */
import { readFileSync } from 'node:fs';
import protobuf from 'protobufjs';
import { decompressBlock, splitBlockItems } from '../../ingest/decode/block-file.ts';
import { BlockRootHasher } from '../../ingest/decode/block-hash.ts';

/** The block's items as raw bytes with their oneof field number and that field's bytes. */
export function rawItems(file: string): { kind: number; bytes: Uint8Array; inner: Uint8Array }[] {
  return splitBlockItems(decompressBlock(readFileSync(file))).map((bytes) => {
    const reader = protobuf.Reader.create(bytes);
    const kind = reader.uint32() >>> 3;
    return { kind, bytes, inner: reader.bytes() };
  });
}

/** Recomputes a block's root hash from its items with the ingest's hasher (§3.4 categories). */
export function rootOf(file: string): { root: Uint8Array; footer: Uint8Array[] } {
  const hasher = new BlockRootHasher();
  const footer: Uint8Array[] = [];
  let timestamp: Uint8Array = new Uint8Array();
  for (const { kind, bytes, inner } of rawItems(file)) {
    hasher.add(kind, bytes);
    const fields = protobuf.Reader.create(inner);
    while (kind === 1 || kind === 12 ? fields.pos < fields.len : false) {
      const tag = fields.uint32();
      if (kind === 1 && tag >>> 3 === 4) timestamp = fields.bytes();
      else if (kind === 12) footer.push(fields.bytes());
      else fields.skipType(tag & 7);
    }
  }
  const [previous = new Uint8Array(), all = new Uint8Array(), state = new Uint8Array()] = footer;
  const root = hasher.root({
    previousBlockRootHash: previous,
    rootHashOfAllBlockHashesTree: all,
    startOfBlockStateRootHash: state,
    blockTimestamp: timestamp,
  });
  return { root, footer };
}
