import { LONG_MAX, wrapLong } from './numbers.ts';
import { hasLowerBound, hasUpperBound, type RangeParam } from './range.ts';

/**
 * The lower and upper bound of a set of range parameters (the Java process's `Bound`): the last parameter on each
 * side wins; `gt`/`lt` become inclusive bounds with Java's wrap-around. Without a lower bound it is 0, without an
 * upper bound `Long.MAX_VALUE`.
 */
export interface Bound {
  /** No parameter sets either side. */
  empty: boolean;
  /** Inclusive lower bound. */
  lower: bigint;
  /** Inclusive upper bound. */
  upper: bigint;
}

export function bound(params: readonly RangeParam[]): Bound {
  let lower: RangeParam | undefined;
  let upper: RangeParam | undefined;
  for (const param of params) {
    if (hasLowerBound(param)) lower = param;
    else if (hasUpperBound(param)) upper = param;
  }
  return {
    empty: lower === undefined && upper === undefined,
    lower: lower === undefined ? 0n : lower.operator === 'gt' ? wrapLong(lower.value + 1n) : lower.value,
    upper: upper === undefined ? LONG_MAX : upper.operator === 'lt' ? wrapLong(upper.value - 1n) : upper.value,
  };
}

/** The bound of a `timestamp` parameter of the system file and supply routes, where `eq` means "at or before". */
export const timestampBound = (params: readonly RangeParam[]): Bound =>
  bound(params.map((param) => (param.operator === 'eq' ? { operator: 'lte', value: param.value } : param)));
