import type { Filter, ParamParser } from './filters.ts';
import { parsePositiveLong } from './scalars.ts';

export type Order = 'asc' | 'desc';

/**
 * `limit`: a positive long (1 to 2^63-1, leading zeros allowed) under any operator; values above `max` are
 * capped to it, not refused. `max` is `response.limit.max`, or the authenticated user's own limit.
 */
export const limitParam =
  (max: number): ParamParser<number> =>
  (value) => {
    const limit = parsePositiveLong(value);
    if (limit === undefined) return undefined;
    return limit > BigInt(max) ? max : Number(limit);
  };

/** `order`: `asc` or `desc` in any letter case, under any operator. */
export const orderParam: ParamParser<Order> = (value) => {
  const order = value.toLowerCase();
  return order === 'asc' || order === 'desc' ? order : undefined;
};

/** The last `limit` given wins; `fallback` is `response.limit.default` (or a route's own default). */
export function resolveLimit(filters: readonly Filter[], fallback: number): number {
  const last = filters.findLast((filter) => filter.key === 'limit');
  return typeof last?.value === 'number' ? last.value : fallback;
}

/** The last `order` given wins. */
export function resolveOrder(filters: readonly Filter[], fallback: Order): Order {
  const last = filters.findLast((filter) => filter.key === 'order');
  return last?.value === 'asc' || last?.value === 'desc' ? last.value : fallback;
}
