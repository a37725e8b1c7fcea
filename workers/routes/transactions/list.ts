import { Hono } from 'hono';
import { committedValue } from '../../../db/queries/committed-end.ts';
import {
  type AccountCondition,
  type ConsensusBounds,
  listTransactions,
  type TransactionListQuery,
} from '../../../db/queries/transactions-list.ts';
import type { AppEnv } from '../../context.ts';
import { cacheControlFor } from '../../finality/freshness.ts';
import { isFinalPage } from '../../finality/page.ts';
import { entityIdParam } from '../../params/entity-id.ts';
import { limitParam, orderParam, resolveLimit, resolveOrder } from '../../params/limit-order.ts';
import { lastValue } from '../../params/query.ts';
import { requestFilters } from '../../params/request-query.ts';
import { looseTimestampRange, timestampParam } from '../../params/timestamp.ts';
import { transactionResultParam, transactionTypeParam, transferTypeParam } from '../../params/transaction-filters.ts';
import { jsonResponse } from '../../respond.ts';
import { formatTransaction } from './format.ts';
import { transactionPageLink } from './page-link.ts';
import { boundTimeWindow } from './time-window.ts';

/**
 * New transactions keep arriving at the head of the list: cached for two seconds. A page of history the ingest
 * can no longer add to is final (workers/finality/page.ts): transactions are written once, with their transfers.
 */
const LIST_MAX_AGE = 2;

/** `GET /api/v1/transactions`. */
export const transactionListRoute = new Hono<AppEnv>().get('/', async (c) => {
  const config = c.get('config');
  const db = c.get('db');
  const filters = requestFilters(c, {
    'account.id': entityIdParam(config.common),
    limit: limitParam(c.get('maxLimit')),
    order: orderParam,
    result: transactionResultParam,
    timestamp: timestampParam,
    transactiontype: transactionTypeParam,
    type: transferTypeParam,
  });
  const range = looseTimestampRange(
    filters.filter((f) => f.key === 'timestamp'),
    config.query,
  );
  const limit = resolveLimit(filters, config.response.limit.default);
  const order = resolveOrder(filters, 'desc');
  const transferTypes = new Set(filters.flatMap((f) => (f.key === 'type' ? [f.value] : [])));

  const empty = () => jsonResponse({ transactions: [], links: { next: null } }, { maxAge: LIST_MAX_AGE });
  // Nothing matches two distinct timestamps, an empty range or both credit and debit (spelled differently).
  if (range.eq.length > 1 || range.empty || transferTypes.size > 1) return empty();

  let bounds: ConsensusBounds = { lower: range.lower, upper: range.upper, eq: range.eq[0] ?? null, ne: range.ne };
  let windowEnd: bigint | undefined;
  if (bounds.eq === null && config.query.bindTimestampRange) {
    const window = await boundTimeWindow(db, bounds, order, {
      maxRangeNs: BigInt(config.query.maxTransactionsTimestampRangeNs),
      nowNs: c.get('now')(),
    });
    bounds = window.bounds;
    windowEnd = window.next;
  }

  const accounts: AccountCondition[] = filters.flatMap((f) =>
    f.key === 'account.id' ? [{ operator: f.operator, account: f.value.kind === 'num' ? f.value.encoded : null }] : [],
  );
  const transferType = lastValue(filters, 'type')?.toLowerCase();
  const query: TransactionListQuery = {
    accounts,
    transferSign: transferType === 'credit' || transferType === 'debit' ? transferType : undefined,
    result: lastValue(filters, 'result'),
    types: filters.flatMap((f) => (f.key === 'transactiontype' ? [f.value] : [])),
    timestamp: bounds,
    order,
    limit,
    precedingTypes: config.query.transactions.precedingTransactionTypes,
  };
  const rows = await listTransactions(db, query);
  const transactions = rows.map(formatTransaction);

  const next = transactionPageLink({ url: c.req.url, config, order, limit, transactions, windowEnd });
  // A time window bound to the clock (query.bindTimestampRange) moves with it: never final.
  const final =
    windowEnd === undefined &&
    !config.query.bindTimestampRange &&
    isFinalPage({
      order,
      limit,
      rows: rows.length,
      upper: bounds.eq ?? bounds.upper ?? undefined,
      committed: committedValue(rows[0]?.committed_end),
    });
  return jsonResponse({ transactions, links: { next } }, { cacheControl: cacheControlFor(c, final, LIST_MAX_AGE) });
});
