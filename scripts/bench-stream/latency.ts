/** When the ingest committed each record file: its consensus end and the wall clock (ms) of the commit. */
export class CommitTimes {
  readonly #files: { end: bigint; atMs: number }[] = [];

  /** Files arrive in order, each ending after the one before. */
  add(consensusEnd: bigint, atMs: number): void {
    this.#files.push({ end: consensusEnd, atMs });
  }

  get size(): number {
    return this.#files.length;
  }

  /** When the file holding a row with this consensus timestamp was committed; undefined when not seen. */
  commitOf(consensusNs: bigint): number | undefined {
    let low = 0;
    let high = this.#files.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((this.#files[mid]?.end ?? 0n) < consensusNs) low = mid + 1;
      else high = mid;
    }
    return this.#files[low]?.atMs;
  }
}

/** The `p`-th percentile (0-100) of `values` by nearest rank; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}
