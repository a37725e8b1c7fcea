import type { ColumnFilter } from '../../../db/queries/accounts-paging.ts';
import { ApiError } from '../../errors.ts';
import type { Filter, Operator } from '../../params/filters.ts';

/**
 * Paging over two sort keys (token id then serial number, spender then token id), as the reference's
 * JavaScript list routes do it: each key takes at most one `eq`, one lower and one upper bound, and the filters
 * split into up to three parts whose results are concatenated (a union), so that each part walks the index in
 * key order:
 *   lower: primary = its lower bound, secondary past its lower bound;
 *   inner: primary strictly between its bounds (secondary free);
 *   upper: primary = its upper bound, secondary before its upper bound.
 */
export interface Bound<V> {
  key: string;
  equal?: Filter<string, V>;
  lower?: Filter<string, V>;
  upper?: Filter<string, V>;
}

export const newBound = <V>(key: string): Bound<V> => ({ key });

const hasBound = (bound: Bound<unknown>) => bound.lower !== undefined || bound.upper !== undefined;
const isEmpty = (bound: Bound<unknown>) => bound.equal === undefined && !hasBound(bound);

/** Adds a filter to its bound; a second filter on one side, or `ne`, is a 400. */
export function addToBound<V>(bound: Bound<V>, filter: Filter<string, V>): void {
  const { operator } = filter;
  if (operator === 'eq') {
    if (bound.equal) throw ApiError.badRequest(`Only one equal (eq) operator is allowed for ${bound.key}`);
    bound.equal = filter;
  } else if (operator === 'gt' || operator === 'gte') {
    if (bound.lower) throw ApiError.badRequest(`Only one gt/gte operator is allowed for ${bound.key}`);
    bound.lower = filter;
  } else if (operator === 'lt' || operator === 'lte') {
    if (bound.upper) throw ApiError.badRequest(`Only one lt/lte operator is allowed for ${bound.key}`);
    bound.upper = filter;
  } else {
    throw ApiError.badRequest(`Not equal (ne) operator is not supported for ${bound.key}`);
  }
}

export interface Bounds<P, S> {
  primary: Bound<P>;
  secondary: Bound<S>;
}

/** The reference's checks of a pair of bounds, with its messages, in its order. */
export function validateBounds(bounds: Bounds<unknown, unknown>): void {
  const { primary, secondary } = bounds;
  for (const bound of [primary, secondary]) {
    if (hasBound(bound) && bound.equal) {
      throw ApiError.badRequest(`Can't support both range and equal for ${bound.key}`);
    }
  }
  if (isEmpty(primary) && !isEmpty(secondary)) {
    throw ApiError.badRequest(`${secondary.key} without a ${primary.key} parameter filter`);
  }
  if (!primary.equal && secondary.lower && (!primary.lower || primary.lower.operator === 'gt')) {
    throw ApiError.badRequest(`${primary.key} must have gte or eq operator`);
  }
  if (!primary.equal && secondary.upper && (!primary.upper || primary.upper.operator === 'lt')) {
    throw ApiError.badRequest(`${primary.key} must have lte or eq operator`);
  }
}

/** One part of the union: the filters its rows satisfy, as (key, operator, value). */
export type BoundFilter = Filter<string, unknown>;

const withOperator = (filter: BoundFilter, operator: Operator): BoundFilter => ({ ...filter, operator });
const present = (filters: (BoundFilter | undefined)[]): BoundFilter[] =>
  filters.filter((filter): filter is BoundFilter => filter !== undefined);

/** The non-empty parts (lower, inner, upper) of the union; none when no part has filters. */
export function boundParts(bounds: Bounds<unknown, unknown>): BoundFilter[][] {
  const { primary, secondary } = bounds;
  let lower: BoundFilter[] = [];
  if (!hasBound(secondary)) {
    lower = present([primary.equal, primary.lower, primary.upper, secondary.equal]);
  } else if (primary.lower && secondary.lower) {
    lower = present([withOperator(primary.lower, 'eq'), secondary.lower]);
  } else if (primary.equal) {
    lower = present([primary.equal, primary.lower, primary.upper, secondary.lower, secondary.equal, secondary.upper]);
  }
  const inner =
    hasBound(primary) && hasBound(secondary)
      ? present([
          primary.lower && withOperator(primary.lower, secondary.lower ? 'gt' : primary.lower.operator),
          primary.upper && withOperator(primary.upper, secondary.upper ? 'lt' : primary.upper.operator),
        ])
      : [];
  const upper = primary.upper && secondary.upper ? present([withOperator(primary.upper, 'eq'), secondary.upper]) : [];
  return [lower, inner, upper].filter((part) => part.length > 0);
}

/**
 * The cursor of the next page (for `nextLink`), or null when the page is the last one or the filters name a
 * single row. The primary key's bound is inclusive unless the secondary key is fixed by `eq`.
 */
export function boundsCursor(
  bounds: Bounds<unknown, unknown>,
  options: {
    count: number;
    limit: number;
    last: { primary: string | number | bigint; secondary: string | number | bigint } | undefined;
  },
): Record<string, { value: string | number | bigint; inclusive?: boolean; primary?: boolean }> | null {
  const { primary, secondary } = bounds;
  if (options.count < options.limit || !options.last || (primary.equal && secondary.equal)) return null;
  const cursor: Record<string, { value: string | number | bigint; inclusive?: boolean; primary?: boolean }> = {};
  if (hasBound(primary) || isEmpty(primary)) {
    cursor[primary.key] = { value: options.last.primary, inclusive: !secondary.equal, primary: true };
  }
  if (hasBound(secondary) || isEmpty(secondary)) cursor[secondary.key] = { value: options.last.secondary };
  return cursor;
}

/** The parts of `bounds` as column filters of a paged query, each bound's key mapped to its column. */
export function columnParts<C extends string>(
  bounds: Bounds<unknown, unknown>,
  columns: Readonly<Record<string, C>>,
): ColumnFilter<C>[][] {
  return boundParts(bounds).map((part) =>
    part.map((f) => ({ column: columns[f.key] as C, operator: f.operator, value: f.value as bigint | null })),
  );
}
