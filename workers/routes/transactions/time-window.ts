import type { Database } from '../../../db/client.ts';
import { type ConsensusBounds, firstTransactionTimestamp } from '../../../db/queries/transactions-list.ts';
import type { Order } from '../../params/limit-order.ts';

export interface TimeWindow {
  bounds: ConsensusBounds;
  /**
   * Where the window was cut to `maxRangeNs`: the bound the next page continues from (the new lower bound when
   * paging down, the new upper bound when paging up). Undefined when the whole range fits.
   */
  next?: bigint;
}

/**
 * `query.bindTimestampRange`: closes an open range at the first transaction (below) and now (above), then keeps at
 * most `maxRangeNs` of it next to where the page starts (the top for `desc`, the bottom for `asc`). Keeps a scan
 * inside a time window even where an account has no transactions for years.
 */
export async function boundTimeWindow(
  db: Database,
  bounds: ConsensusBounds,
  order: Order,
  options: { maxRangeNs: bigint; nowNs: bigint },
): Promise<TimeWindow> {
  const lower = bounds.lower ?? (await firstTransactionTimestamp(db)) ?? 0n;
  const upper = bounds.upper ?? options.nowNs;
  if (upper - lower + 1n <= options.maxRangeNs) return { bounds: { ...bounds, lower, upper } };
  if (order === 'desc') {
    const cut = upper - options.maxRangeNs + 1n;
    return { bounds: { ...bounds, lower: cut, upper }, next: cut };
  }
  const cut = lower + options.maxRangeNs - 1n;
  return { bounds: { ...bounds, lower, upper: cut }, next: cut };
}
