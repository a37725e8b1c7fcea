import type { Order } from './limit-order.ts';
import { parseQueryString } from './query-string.ts';

/**
 * `order` as the reference's older list routes (`/accounts`, `/balances`) read it after validation: only a single
 * value that is exactly `asc` or `desc` counts, so a repeated `order` or one with an operator (`eq:desc`, which
 * passes validation) leaves the route's default.
 */
export function legacyOrder(search: string, maxRepeated: number, fallback: Order): Order {
  const values = parseQueryString(search, maxRepeated).find((param) => param.key === 'order')?.values ?? [];
  const [value] = values;
  return values.length === 1 && (value === 'asc' || value === 'desc') ? value : fallback;
}

/**
 * The last raw value of a boolean parameter as those routes read it: true only when it is `true` in any letter
 * case (`eq:true` passes validation but reads false); `fallback` when absent.
 */
export function legacyBoolean(search: string, maxRepeated: number, key: string, fallback: boolean): boolean {
  const values = parseQueryString(search, maxRepeated).find((param) => param.key === key)?.values ?? [];
  const last = values[values.length - 1];
  return typeof last === 'string' ? last.toLowerCase() === 'true' : fallback;
}
