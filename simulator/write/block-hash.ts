/**
 * The block root hash of a block stream (HIP-1056, as the fixtures' hashes confirm): five streaming merkle trees
 * over the serialized items of each category, an 8-leaf tree over the footer's three hashes and those five
 * roots, and a root joining the block timestamp's leaf with that tree. Prefixes: 0x00 leaf, 0x01 single child,
 * 0x02 two children.
 */
import { sha384 } from '../hash.ts';

const LEAF = new Uint8Array([0]);
const SINGLE = new Uint8Array([1]);
const PAIR = new Uint8Array([2]);

export const leafHash = (bytes: Uint8Array) => sha384(LEAF, bytes);
const internal = (left: Uint8Array, right: Uint8Array) => sha384(PAIR, left, right);

/** A merkle tree built leaf by leaf, keeping only the roots of its complete subtrees. */
export class StreamingTree {
  private readonly stack: Uint8Array[];
  private count: number;

  constructor(saved?: { readonly stack: readonly string[]; readonly count: number }) {
    this.stack = (saved?.stack ?? []).map((hex) => new Uint8Array(Buffer.from(hex, 'hex')));
    this.count = saved?.count ?? 0;
  }

  /** The tree's state, for continuing it in a later run. */
  save(): { stack: string[]; count: number } {
    return { stack: this.stack.map((h) => Buffer.from(h).toString('hex')), count: this.count };
  }

  addLeaf(bytes: Uint8Array): void {
    this.addHash(leafHash(bytes));
  }

  /** Adds an already hashed leaf (the tree of all block hashes takes block roots as they are). */
  addHash(hash: Uint8Array): void {
    this.stack.push(hash);
    for (let n = this.count; (n & 1) === 1; n >>= 1) {
      const right = this.stack.pop() as Uint8Array;
      const left = this.stack.pop() as Uint8Array;
      this.stack.push(internal(left, right));
    }
    this.count++;
  }

  root(): Uint8Array {
    if (this.stack.length === 0) return sha384(LEAF);
    let hash = this.stack[this.stack.length - 1] as Uint8Array;
    for (let i = this.stack.length - 2; i >= 0; i--) hash = internal(this.stack[i] as Uint8Array, hash);
    return hash;
  }
}

export interface BlockHashInputs {
  readonly previousBlockRootHash: Uint8Array;
  readonly rootHashOfAllBlockHashesTree: Uint8Array;
  readonly startOfBlockStateRootHash: Uint8Array;
  readonly consensusHeaders: Uint8Array;
  readonly inputs: Uint8Array;
  readonly outputs: Uint8Array;
  readonly stateChanges: Uint8Array;
  readonly traceData: Uint8Array;
  /** The serialized `Timestamp` of the block header's `block_timestamp`. */
  readonly blockTimestamp: Uint8Array;
}

export function blockRootHash(inputs: BlockHashInputs): Uint8Array {
  const leaves = [
    inputs.previousBlockRootHash,
    inputs.rootHashOfAllBlockHashesTree,
    inputs.startOfBlockStateRootHash,
    inputs.consensusHeaders,
    inputs.inputs,
    inputs.outputs,
    inputs.stateChanges,
    inputs.traceData,
  ];
  let level = leaves;
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(internal(level[i] as Uint8Array, level[i + 1] as Uint8Array));
    level = next;
  }
  return internal(leafHash(inputs.blockTimestamp), sha384(SINGLE, level[0] as Uint8Array));
}
