import type { Database } from '../../../db/client.ts';
import { firstTransactionTimestamp } from '../../../db/queries/contract-results.ts';
import type { Config } from '../../config/config.ts';
import type { Filter } from '../../params/filters.ts';
import type { Order } from '../../params/limit-order.ts';
import { looseTimestampRange } from '../../params/timestamp.ts';

/** The timestamp filters of a list that spans all contracts, folded and (optionally) bound to a window. */
export interface TimestampWindow {
  /** The filters select nothing (their bounds exclude each other). */
  empty: boolean;
  /** Inclusive bounds (absent when open or zero). */
  lower?: bigint;
  upper?: bigint;
  eq: bigint[];
  ne: bigint[];
  /** When the window cut the range: where the next page starts. */
  next?: bigint;
}

/**
 * The reference's handling of `timestamp` on `/contracts/results` and `/contracts/results/logs`: the filters fold
 * into one range (largest lower bound, smallest upper bound; no strictness checks), plus eq and ne values. With
 * `bind` (`query.bindTimestampRange`) and no eq value, an open or too wide range is cut to `maxTransactionsTimestampRange`
 * from its start (ascending) or end (descending), from the first transaction up to now, and `next` says where
 * the next page begins.
 */
export async function timestampWindow(
  filters: readonly Filter<string, bigint>[],
  order: Order,
  context: { config: Config; db: Database; now: bigint; bind: boolean },
): Promise<TimestampWindow> {
  const { query } = context.config;
  const range = looseTimestampRange(filters, query);
  if (range.empty) return { empty: true, eq: [], ne: [] };
  let lower = range.lower;
  let upper = range.upper;
  let next: bigint | undefined;
  if (context.bind && range.eq.length === 0) {
    const maxNs = BigInt(query.maxTransactionsTimestampRangeNs);
    lower ??= (await firstTransactionTimestamp(context.db)) ?? 0n;
    upper ??= context.now;
    if (upper - lower + 1n > maxNs) {
      if (order === 'desc') next = lower = upper - maxNs + 1n;
      else next = upper = lower + maxNs - 1n;
    }
  }
  return {
    empty: false,
    lower: lower ? lower : undefined,
    upper: upper ? upper : undefined,
    eq: range.eq,
    ne: range.ne,
    next,
  };
}
