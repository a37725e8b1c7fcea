import type { LogBound } from '../../../db/queries/contract-logs.ts';
import { ApiError } from '../../errors.ts';
import type { Operator } from '../../params/filters.ts';

/**
 * The reference's two-column paging of contract logs: a primary bound on `timestamp` and a secondary bound on
 * `index`, each holding at most one `eq`, one `gt`/`gte` and one `lt`/`lte` filter. A page over both becomes a
 * union of up to three parts (the first timestamp from an index on, the timestamps strictly inside, the last
 * timestamp up to an index), each walking the (timestamp, index) order.
 */

export type BoundOperator = Exclude<Operator, 'ne'>;

export interface BoundFilter {
  operator: BoundOperator;
  value: bigint | number;
}

export interface Bound {
  key: 'timestamp' | 'index';
  equal?: BoundFilter;
  lower?: BoundFilter;
  upper?: BoundFilter;
}

export const newBound = (key: Bound['key']): Bound => ({ key });

export const hasRange = (bound: Bound): boolean => bound.lower !== undefined || bound.upper !== undefined;
export const isEmptyBound = (bound: Bound): boolean => bound.equal === undefined && !hasRange(bound);

/** Adds a filter; a second filter of the same kind, or `ne`, is refused with the reference's messages. */
export function addFilter(bound: Bound, operator: Operator, value: bigint | number): void {
  if (operator === 'eq') {
    if (bound.equal) throw ApiError.badRequest(`Only one equal (eq) operator is allowed for ${bound.key}`);
    bound.equal = { operator, value };
  } else if (operator === 'gt' || operator === 'gte') {
    if (bound.lower) throw ApiError.badRequest(`Only one gt/gte operator is allowed for ${bound.key}`);
    bound.lower = { operator, value };
  } else if (operator === 'lt' || operator === 'lte') {
    if (bound.upper) throw ApiError.badRequest(`Only one lt/lte operator is allowed for ${bound.key}`);
    bound.upper = { operator, value };
  } else {
    throw ApiError.badRequest(`Not equal (ne) operator is not supported for ${bound.key}`);
  }
}

/** The filters of a bound, `eq` first. */
export const boundFilters = (bound: Bound): BoundFilter[] =>
  [bound.equal, bound.lower, bound.upper].filter((f): f is BoundFilter => f !== undefined);

/**
 * The reference's checks of a timestamp / index combination: an index `eq` needs a timestamp `eq`; neither takes
 * a range together with `eq`; an index needs a timestamp; an index lower (upper) bound needs a timestamp `eq`, or an
 * inclusive lower (upper) timestamp bound.
 */
export function validateLogBounds(primary: Bound, secondary: Bound): void {
  if (secondary.equal && !primary.equal) throw ApiError.badRequest(`${primary.key} must have eq operator`);
  for (const bound of [primary, secondary]) {
    if (hasRange(bound) && bound.equal) {
      throw ApiError.badRequest(`Can't support both range and equal for ${bound.key}`);
    }
  }
  if (isEmptyBound(primary) && !isEmptyBound(secondary)) {
    throw ApiError.badRequest(`${secondary.key} without a ${primary.key} parameter filter`);
  }
  if (!primary.equal && secondary.lower && primary.lower?.operator !== 'gte') {
    throw ApiError.badRequest(`${primary.key} must have gte or eq operator`);
  }
  if (!primary.equal && secondary.upper && primary.upper?.operator !== 'lte') {
    throw ApiError.badRequest(`${primary.key} must have lte or eq operator`);
  }
}

const COLUMN = { timestamp: 'consensus_timestamp', index: 'index' } as const;

function toLogBounds(key: Bound['key'], filters: readonly (BoundFilter | undefined)[]): LogBound[] {
  return filters
    .filter((f): f is BoundFilter => f !== undefined)
    .map(({ operator, value }) => ({ column: COLUMN[key], operator, value }));
}

/** The union parts of a page (see `contractLogs`); empty parts are left out. */
export function logPageParts(primary: Bound, secondary: Bound): LogBound[][] {
  const both = (p: readonly (BoundFilter | undefined)[], s: readonly (BoundFilter | undefined)[]) => [
    ...toLogBounds(primary.key, p),
    ...toLogBounds(secondary.key, s),
  ];
  let lower: LogBound[] = [];
  if (!hasRange(secondary)) {
    lower = both([primary.equal, primary.lower, primary.upper], [secondary.equal]);
  } else if (primary.lower && secondary.lower) {
    lower = both([{ ...primary.lower, operator: 'eq' }], [secondary.lower]);
  } else if (primary.equal) {
    lower = both([primary.equal, primary.lower, primary.upper], [secondary.lower, secondary.equal, secondary.upper]);
  }

  let inner: LogBound[] = [];
  if (hasRange(primary) && hasRange(secondary)) {
    inner = toLogBounds(primary.key, [
      primary.lower && { ...primary.lower, operator: secondary.lower ? 'gt' : primary.lower.operator },
      primary.upper && { ...primary.upper, operator: secondary.upper ? 'lt' : primary.upper.operator },
    ]);
  }

  const upper = primary.upper && secondary.upper ? both([{ ...primary.upper, operator: 'eq' }], [secondary.upper]) : [];
  return [lower, inner, upper].filter((part) => part.length > 0);
}
