/**
 * Block files in a directory or bucket. Layouts found on the way in: the split layout
 * (`0000/0000/0002/6591/040.blk.zstd`) at the root, under `block/`, or under `<network>/block/` (the block bucket;
 * the lexicographically greatest `<network>[-suffix]` folder wins), or flat 19-digit names at the root. The
 * block after the last one is fetched by name; a missing block is waited for (polling) and never skipped.
 */
import {
  BLOCK_EXTENSIONS,
  blockNumberOfKey,
  decompressBlock,
  paddedBlockNumber,
  splitBlockItems,
  splitBlockPath,
} from '../decode/block-file.ts';
import { FormatError } from '../decode/byte-reader.ts';
import { sleep } from '../sleep.ts';
import { RejectedFileError } from '../verify/errors.ts';
import type { BlockSource, BlockStreamOptions, SourcedBlock } from './block-source.ts';
import type { ObjectStore } from './object-store.ts';

interface Layout {
  readonly prefix: string;
  readonly split: boolean;
}

const SPLIT_FOLDER = /^\d{4}\/$/;

/** A file that is no compressed Block is rejected like an unreadable block (logged, retried at the next poll). */
function itemsOf(key: string, bytes: Uint8Array): Uint8Array[] {
  try {
    return splitBlockItems(decompressBlock(bytes));
  } catch (error) {
    if (error instanceof FormatError) throw new RejectedFileError(key, error.message);
    throw error;
  }
}

export class BlockFileSource implements BlockSource {
  readonly store: ObjectStore;
  readonly description: string;
  private readonly network: string | undefined;
  private layout: Layout | undefined;
  /** Extension of the last block found, tried first for the next one. */
  private extension: string = BLOCK_EXTENSIONS[0];

  constructor(store: ObjectStore, options: { network?: string } = {}) {
    this.store = store;
    this.network = options.network;
    this.description = store.description;
  }

  private async findLayout(): Promise<Layout | undefined> {
    if (this.layout) return this.layout;
    const rootFolders = await this.store.listFolders('');
    let layout: Layout | undefined;
    if (rootFolders.some((f) => SPLIT_FOLDER.test(f))) layout = { prefix: '', split: true };
    else if (rootFolders.includes('block/')) layout = { prefix: 'block/', split: true };
    else {
      const networks = rootFolders
        .filter((f) => (this.network ? new RegExp(`^${this.network}(-.+)?/$`).test(f) : true))
        .sort();
      for (const folder of networks.reverse()) {
        if ((await this.store.listFolders(folder)).includes(`${folder}block/`)) {
          layout = { prefix: `${folder}block/`, split: true };
          break;
        }
      }
      if (!layout && (await this.store.list('', '', 1000)).some((k) => blockNumberOfKey(k) !== undefined)) {
        layout = { prefix: '', split: false };
      }
    }
    this.layout = layout;
    return layout;
  }

  private keysOf(layout: Layout, number: bigint): string[] {
    const extensions = [this.extension, ...BLOCK_EXTENSIONS.filter((e) => e !== this.extension)];
    return extensions.map((ext) =>
      layout.split
        ? `${layout.prefix}${splitBlockPath(number, ext)}`
        : `${layout.prefix}${paddedBlockNumber(number)}${ext}`,
    );
  }

  async earliest(): Promise<bigint | undefined> {
    const layout = await this.findLayout();
    if (!layout) return undefined;
    if (!layout.split) {
      const first = (await this.store.list(layout.prefix, '', 1000)).map(blockNumberOfKey).find((n) => n !== undefined);
      return first;
    }
    // Walk the four 4-digit folder levels, lowest first, down to the first file.
    let prefix = layout.prefix;
    for (let level = 0; level < 4; level++) {
      const folders = (await this.store.listFolders(prefix)).filter((f) => SPLIT_FOLDER.test(f.slice(prefix.length)));
      const first = folders[0];
      if (!first) return undefined;
      prefix = first;
    }
    const keys = await this.store.list(prefix, '', 1000);
    return keys.map(blockNumberOfKey).find((n) => n !== undefined);
  }

  /** Block `number`, or undefined when no file holds it (yet). */
  async get(number: bigint): Promise<SourcedBlock | undefined> {
    const layout = await this.findLayout();
    if (!layout) {
      this.layout = undefined;
      return undefined;
    }
    for (const key of this.keysOf(layout, number)) {
      const bytes = await this.store.get(key);
      if (!bytes) continue;
      this.extension = BLOCK_EXTENSIONS.find((e) => key.endsWith(e)) ?? this.extension;
      return { number, origin: key, items: itemsOf(key, bytes), size: bytes.length };
    }
    return undefined;
  }

  async *blocks(start: bigint, options: BlockStreamOptions): AsyncIterable<SourcedBlock> {
    let next = start;
    while (!options.signal?.aborted && (options.end === undefined || next <= options.end)) {
      const block = await this.get(next);
      if (!block) {
        if (options.untilIdle) return;
        await sleep(options.pollIntervalMs ?? 2_000, options.signal);
        continue;
      }
      yield block;
      next++;
    }
  }
}
