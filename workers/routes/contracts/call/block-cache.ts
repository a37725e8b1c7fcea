import type { Database } from '../../../../db/client.ts';
import type { BlockContext } from '../../../evm/types.ts';
import type { BlockSpec } from './block-spec.ts';
import { resolveBlock } from './resolve-block.ts';

/** How long the newest record file is reused: a new one closes every 2 s or so. */
const LATEST_TTL_MS = 500;
/** Record files found by `earliest`, number or hash never change; this many are kept, oldest out first. */
const MAX_FIXED = 1024;

const fixedKey = (spec: Exclude<BlockSpec, { kind: 'latest' }>) =>
  spec.kind === 'earliest' ? 'earliest' : spec.kind === 'number' ? `n${spec.number}` : `h${spec.hash}`;

/**
 * The blocks calls run on, kept by an executor object so most calls spend no statement on them: `latest` for
 * half a second, every other block (a found one: a missing block may arrive later) until it is pushed out.
 */
export class BlockCache {
  private latest: { block: BlockContext; untilMs: number } | undefined;
  private readonly fixed = new Map<string, BlockContext>();

  async resolve(db: Database, spec: BlockSpec, nowMs: number): Promise<BlockContext | undefined> {
    if (spec.kind === 'latest') {
      if (this.latest && nowMs < this.latest.untilMs) return this.latest.block;
      const block = await resolveBlock(db, spec);
      this.latest = block && { block, untilMs: nowMs + LATEST_TTL_MS };
      return block;
    }
    const key = fixedKey(spec);
    const known = this.fixed.get(key);
    if (known) return known;
    const block = await resolveBlock(db, spec);
    if (block) {
      if (this.fixed.size >= MAX_FIXED) this.fixed.delete(this.fixed.keys().next().value as string);
      this.fixed.set(key, block);
    }
    return block;
  }
}
