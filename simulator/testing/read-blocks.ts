/** Reads block files back item by item and recomputes their root hash, for tests. */
import { readFileSync } from 'node:fs';
import { zstdDecompressSync } from 'node:zlib';
import protobuf from 'protobufjs';
import { BlockRootHasher } from '../../ingest/decode/block-hash.ts';

/** The block's items as raw bytes with their oneof field number. */
export function rawItems(file: string): { kind: number; bytes: Uint8Array; inner: Uint8Array }[] {
  const reader = protobuf.Reader.create(zstdDecompressSync(readFileSync(file)));
  const items: { kind: number; bytes: Uint8Array; inner: Uint8Array }[] = [];
  while (reader.pos < reader.len) {
    reader.uint32();
    const bytes = reader.bytes();
    const inner = protobuf.Reader.create(bytes);
    const kind = inner.uint32() >>> 3;
    items.push({ kind, bytes, inner: inner.bytes() });
  }
  return items;
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
