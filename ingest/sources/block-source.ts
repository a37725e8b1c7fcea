/**
 * Where blocks come from (I/O only): a directory or bucket of block files, or a block node's subscribe stream.
 * A source hands over each block as its serialized items, in block-number order from the number asked for.
 */

export interface SourcedBlock {
  readonly number: bigint;
  /** Where it came from, for logs: a key, or `blocknode://host:port#N`. */
  readonly origin: string;
  readonly items: readonly Uint8Array[];
  /** Bytes as transferred (compressed size for files). */
  readonly size: number;
}

export interface BlockSource {
  readonly description: string;
  /** The first block the source can serve (what `--start-block -1` starts from); undefined when it has none. */
  earliest(): Promise<bigint | undefined>;
  /**
   * Blocks `start`, `start + 1`, … up to `end` (inclusive, when given). Ends when `end` is served, when the
   * signal aborts, or (with `untilIdle`) when the next block is not available yet.
   */
  blocks(start: bigint, options: BlockStreamOptions): AsyncIterable<SourcedBlock>;
}

export interface BlockStreamOptions {
  readonly end?: bigint;
  readonly untilIdle?: boolean;
  readonly pollIntervalMs?: number;
  readonly signal?: AbortSignal;
}

/** A failure that retrying the same source cannot fix (an oversized message, a malformed stream). */
export class FatalSourceError extends Error {
  override readonly name = 'FatalSourceError';
}
