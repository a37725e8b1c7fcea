/**
 * The rule shared by every page of append-only history (docs/adr/0045-final-answers-at-the-edge.md). A page walks
 * a key that grows with consensus time (a consensus timestamp, a block number, a sequence number), in `order`, with
 * the filters' bounds on it. Rows written later all have a key above the newest committed one (`committed`, read in
 * the page's own statement). So the page cannot change when
 * - its upper bound (inclusive) is at or below the newest committed key: nothing can be written within the range; or
 * - it walks up (`asc`) and is full: a later row would sort after its last one, beyond the limit.
 * Everything else in the row is written with it in the same transaction and never changed (immutable history
 * tables); routes whose rows are not of that kind do not use this rule.
 */
export interface HistoryPage {
  readonly order: 'asc' | 'desc';
  readonly limit: number;
  /** Rows the page holds. */
  readonly rows: number;
  /** The greatest key the filters admit (inclusive), when they bound it. */
  readonly upper: bigint | undefined;
  /** The greatest key of the history that is committed, from the page's own statement; null when unknown. */
  readonly committed: bigint | null;
}

export function isFinalPage(page: HistoryPage): boolean {
  if (page.committed === null) return false;
  if (page.upper !== undefined && page.upper <= page.committed) return true;
  return page.order === 'asc' && page.rows >= page.limit && page.limit > 0;
}

/**
 * The greatest value comparisons on one key admit (inclusive), or undefined when none bounds it from above: the
 * least of the `lt`/`lte` bounds and, when `eq` values are given (one, or a list a route reads as `in`), the
 * greatest of them.
 */
export function inclusiveUpper(
  comparisons: readonly { readonly operator: string; readonly value: bigint }[],
): bigint | undefined {
  let range: bigint | undefined;
  let equal: bigint | undefined;
  for (const { operator, value } of comparisons) {
    if (operator === 'eq') equal = equal === undefined || value > equal ? value : equal;
    const bound = operator === 'lt' ? value - 1n : operator === 'lte' ? value : undefined;
    if (bound !== undefined && (range === undefined || bound < range)) range = bound;
  }
  if (range === undefined) return equal;
  return equal === undefined || range < equal ? range : equal;
}
