import { Hono } from 'hono';
import type { Comparison } from '../../../db/queries/comparison.ts';
import { type TokenBalancesQuery, tokenBalances } from '../../../db/queries/tokens-balances.ts';
import type { Config } from '../../config/config.ts';
import type { AppEnv } from '../../context.ts';
import { nextLink } from '../../format/pagination.ts';
import { timestampString } from '../../format/values.ts';
import { encodeEntityId, entityIdParam } from '../../params/entity-id.ts';
import type { Filter } from '../../params/filters.ts';
import { limitParam, orderParam, resolveLimit, resolveOrder } from '../../params/limit-order.ts';
import { publicKeyParam } from '../../params/public-key.ts';
import { lastValue } from '../../params/query.ts';
import { requestFilters } from '../../params/request-query.ts';
import { MAX_LONG } from '../../params/scalars.ts';
import { timestampParam } from '../../params/timestamp.ts';
import { jsonResponse } from '../../respond.ts';
import { formatTokenBalance } from './format.ts';
import { accountBalanceParam, entityIdBound, tokenIdPathParam } from './params.ts';

const NANOS_PER_MILLI = 1_000_000n;

/** Midnight UTC of the first day of the month `delta` months from the one holding `ns`. */
export function firstDayOfMonth(ns: bigint, delta = 0): bigint {
  const date = new Date(Number(ns / NANOS_PER_MILLI));
  return BigInt(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + delta)) * NANOS_PER_MILLI;
}

/**
 * The window in which to look for the balance snapshot that `timestamp` filters ask for (`eq` reads as `lte`), or
 * null when the bounds exclude each other. Balance data are assumed current, so the lower bound is raised to the
 * first day of the month before the upper bound (or now): the search then touches at most two monthly partitions.
 */
export function snapshotWindow(
  filters: readonly Filter<string, bigint>[],
  nowNs: bigint,
): { lower: bigint; upper: bigint; excluded: bigint[] } | null {
  let lower = 0n;
  let upper = MAX_LONG;
  const excluded: bigint[] = [];
  for (const { operator, value } of filters) {
    if (operator === 'eq' || operator === 'lte') upper = value < upper ? value : upper;
    else if (operator === 'lt') upper = value - 1n < upper ? value - 1n : upper;
    else if (operator === 'gte') lower = value > lower ? value : lower;
    else if (operator === 'gt') lower = value + 1n > lower ? value + 1n : lower;
    else excluded.push(value);
  }
  if (lower > upper) return null;
  const floor = firstDayOfMonth(upper < nowNs ? upper : nowNs, -1);
  return { lower: floor > lower ? floor : lower, upper, excluded };
}

const treasuryAccount = (config: Config): bigint =>
  encodeEntityId({ shard: BigInt(config.common.shard), realm: BigInt(config.common.realm), num: 2n });

/**
 * `GET /api/v1/tokens/{tokenId}/balances`: the current balances of the token's associated accounts, or with
 * `timestamp`, the balances of the newest balance snapshot by then.
 */
export const tokenBalanceRoutes = new Hono<AppEnv>().get('/:tokenId/balances', async (c) => {
  const config = c.get('config');
  const tokenId = tokenIdPathParam(c.req.param('tokenId'), config);
  const maxRepeated = config.query.maxRepeatedQueryParameters;
  const filters = requestFilters(c, {
    'account.balance': accountBalanceParam,
    'account.id': entityIdParam(config.common),
    'account.publickey': publicKeyParam,
    limit: limitParam(c.get('maxLimit')),
    order: orderParam,
    timestamp: timestampParam,
  });
  const limit = resolveLimit(filters, config.response.limit.default);
  const order = resolveOrder(filters, 'desc');
  const accountIds: Comparison<bigint | null>[] = [];
  const balances: Comparison<bigint>[] = [];
  const timestamps: Filter<string, bigint>[] = [];
  for (const filter of filters) {
    if (filter.key === 'account.id') {
      accountIds.push({ operator: filter.operator, value: filter.value.kind === 'num' ? filter.value.encoded : null });
    } else if (filter.key === 'account.balance') balances.push(filter);
    else if (filter.key === 'timestamp') timestamps.push(filter);
  }

  const query: TokenBalancesQuery = {
    tokenId,
    accountIds,
    balances,
    publicKey: lastValue(filters, 'account.publickey'),
    order,
    limit,
  };
  if (timestamps.length > 0) {
    const window = snapshotWindow(timestamps, c.get('now')());
    if (!window) return jsonResponse({ timestamp: null, balances: [], links: { next: null } });
    query.snapshot = { ...window, treasuryAccountId: treasuryAccount(config) };
  }

  const rows = await tokenBalances(c.get('db'), query);
  const items = rows.map(formatTokenBalance);
  const last = items[items.length - 1];
  const next =
    last?.account && items.length === limit
      ? nextLink({
          url: c.req.url,
          order,
          cursor: { 'account.id': last.account },
          maxRepeated,
          boundValue: entityIdBound(config),
          includeHost: config.response.includeHostInLink,
        })
      : null;
  const timestamp = timestampString(rows[0]?.timestamp ?? null);
  return jsonResponse({ timestamp, balances: items, links: { next } });
});
