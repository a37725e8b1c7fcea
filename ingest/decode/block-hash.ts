/**
 * The block root hash (shared/design/ingest.md §3.4, reproduced on the fixture blocks): five streaming merkle
 * trees over the serialized items of each category, an 8-leaf tree over the footer's three hashes and those five
 * roots, and a root joining the leaf of the header's block timestamp with that tree. Prefixes: 0x00 leaf,
 * 0x01 single child, 0x02 two children.
 */
import { FormatError } from './byte-reader.ts';
import { sha384 } from './hash.ts';

const LEAF = new Uint8Array([0]);
const SINGLE = new Uint8Array([1]);
const PAIR = new Uint8Array([2]);

const leaf = (bytes: Uint8Array) => sha384(LEAF, bytes);
const pair = (left: Uint8Array, right: Uint8Array) => sha384(PAIR, left, right);

/** A merkle tree fed leaf by leaf that keeps only the roots of its complete subtrees. */
export class StreamingTree {
  private readonly stack: Uint8Array[];
  private count: number;

  /** `saved`: what `state()` returned, to continue a tree (the simulator's tree of all block hashes). */
  constructor(saved?: { readonly stack: readonly Uint8Array[]; readonly count: number }) {
    this.stack = [...(saved?.stack ?? [])];
    this.count = saved?.count ?? 0;
  }

  add(bytes: Uint8Array): void {
    this.addHash(leaf(bytes));
  }

  /** Adds a leaf already hashed (the tree of all block hashes takes block root hashes as they are). */
  addHash(hash: Uint8Array): void {
    this.stack.push(hash);
    // Leaf n (from 0) completes one subtree per trailing one bit of n.
    for (let n = this.count; (n & 1) === 1; n >>>= 1) {
      const right = this.stack.pop() as Uint8Array;
      const left = this.stack.pop() as Uint8Array;
      this.stack.push(pair(left, right));
    }
    this.count++;
  }

  state(): { stack: Uint8Array[]; count: number } {
    return { stack: [...this.stack], count: this.count };
  }

  root(): Uint8Array {
    if (this.stack.length === 0) return sha384(LEAF);
    let hash = this.stack[this.stack.length - 1] as Uint8Array;
    for (let i = this.stack.length - 2; i >= 0; i--) hash = pair(this.stack[i] as Uint8Array, hash);
    return hash;
  }
}

/** The BlockItem field number of a serialized item: its first tag. */
export function itemField(bytes: Uint8Array): number {
  let tag = 0;
  let shift = 0;
  for (let i = 0; i < bytes.length && i < 5; i++) {
    const b = bytes[i] as number;
    tag |= (b & 0x7f) << shift;
    if (b < 0x80) return tag >>> 3;
    shift += 7;
  }
  throw new FormatError('block item without a field tag');
}

/** Which subtree an item (by its BlockItem field number) hashes into; undefined for footer, proof and unhashed. */
export type ItemCategory = 'headers' | 'inputs' | 'outputs' | 'state' | 'trace';

export function categoryOf(field: number): ItemCategory | undefined {
  switch (field) {
    case 2:
    case 3:
      return 'headers';
    case 4:
      return 'inputs';
    case 1:
    case 5:
    case 6:
    case 10:
      return 'outputs';
    case 7:
      return 'state';
    case 11:
      return 'trace';
    default:
      // Items added after the first release (field >= 20) name their category by field number modulo 10.
      if (field < 20) return undefined;
      return (['headers', 'inputs', 'outputs', 'state', 'trace'] as const)[field % 10];
  }
}

export class BlockRootHasher {
  private readonly trees: Record<ItemCategory, StreamingTree> = {
    headers: new StreamingTree(),
    inputs: new StreamingTree(),
    outputs: new StreamingTree(),
    state: new StreamingTree(),
    trace: new StreamingTree(),
  };

  add(field: number, itemBytes: Uint8Array): void {
    const category = categoryOf(field);
    if (category) this.trees[category].add(itemBytes);
  }

  root(footer: {
    previousBlockRootHash: Uint8Array;
    rootHashOfAllBlockHashesTree: Uint8Array;
    startOfBlockStateRootHash: Uint8Array;
    blockTimestamp: Uint8Array;
  }): Uint8Array {
    let level = [
      footer.previousBlockRootHash,
      footer.rootHashOfAllBlockHashesTree,
      footer.startOfBlockStateRootHash,
      this.trees.headers.root(),
      this.trees.inputs.root(),
      this.trees.outputs.root(),
      this.trees.state.root(),
      this.trees.trace.root(),
    ];
    while (level.length > 1) {
      const next: Uint8Array[] = [];
      for (let i = 0; i < level.length; i += 2) next.push(pair(level[i] as Uint8Array, level[i + 1] as Uint8Array));
      level = next;
    }
    return pair(leaf(footer.blockTimestamp), sha384(SINGLE, level[0] as Uint8Array));
  }
}
