/** Reads block files back item by item and recomputes their root hash, for tests. */
import { readFileSync } from 'node:fs';
import { zstdDecompressSync } from 'node:zlib';
import protobuf from 'protobufjs';
import { blockRootHash, StreamingTree } from '../write/block-hash.ts';

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

/** Recomputes a block's root hash from its items with the §3.4 categories. */
export function rootOf(file: string): { root: Uint8Array; footer: Uint8Array[] } {
  const trees = {
    h: new StreamingTree(),
    i: new StreamingTree(),
    o: new StreamingTree(),
    s: new StreamingTree(),
    t: new StreamingTree(),
  };
  const footer: Uint8Array[] = [];
  let timestamp: Uint8Array = new Uint8Array();
  for (const { kind, bytes, inner } of rawItems(file)) {
    if (kind === 2 || kind === 3) trees.h.addLeaf(bytes);
    else if (kind === 4) trees.i.addLeaf(bytes);
    else if ([1, 5, 6, 10].includes(kind)) trees.o.addLeaf(bytes);
    else if (kind === 7) trees.s.addLeaf(bytes);
    else if (kind === 11) trees.t.addLeaf(bytes);
    const fields = protobuf.Reader.create(inner);
    while (kind === 1 || kind === 12 ? fields.pos < fields.len : false) {
      const tag = fields.uint32();
      if (kind === 1 && tag >>> 3 === 4) timestamp = fields.bytes();
      else if (kind === 12) footer.push(fields.bytes());
      else fields.skipType(tag & 7);
    }
  }
  const [previous = new Uint8Array(), all = new Uint8Array(), state = new Uint8Array()] = footer;
  const root = blockRootHash({
    previousBlockRootHash: previous,
    rootHashOfAllBlockHashesTree: all,
    startOfBlockStateRootHash: state,
    consensusHeaders: trees.h.root(),
    inputs: trees.i.root(),
    outputs: trees.o.root(),
    stateChanges: trees.s.root(),
    traceData: trees.t.root(),
    blockTimestamp: timestamp,
  });
  return { root, footer };
}
