/**
 * Where a subscriber stands: every row at or before `(timestamp, index)` has been sent to it. Rows are ordered by
 * consensus timestamp (a block by its last one); only contract logs share a timestamp, and they are ordered by their
 * index within it. Every other row has index 0.
 */
export interface Position {
  readonly timestamp: bigint;
  readonly index: number;
}

/** Everything up to and including `timestamp`. */
export const through = (timestamp: bigint): Position => ({ timestamp, index: Number.MAX_SAFE_INTEGER });

/** True when `a` comes after `b`. */
export const isAfter = (a: Position, b: Position): boolean =>
  a.timestamp > b.timestamp || (a.timestamp === b.timestamp && a.index > b.index);

export const later = (a: Position, b: Position): Position => (isAfter(a, b) ? a : b);
