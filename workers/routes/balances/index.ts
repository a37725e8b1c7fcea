import { Hono } from 'hono';
import { type BalanceRow, currentBalances, snapshotBalances } from '../../../db/queries/balances.ts';
import type { AppEnv } from '../../context.ts';
import { entityId, int64, timestampString } from '../../format/values.ts';
import { legacyOrder } from '../../params/legacy-order.ts';
import { limitParam, orderParam, resolveLimit } from '../../params/limit-order.ts';
import { publicKeyParam } from '../../params/public-key.ts';
import { parseQuery } from '../../params/query.ts';
import { MAX_LONG } from '../../params/scalars.ts';
import { timestampParam } from '../../params/timestamp.ts';
import { pathAndQuery } from '../../request-url.ts';
import { jsonResponse } from '../../respond.ts';
import { formatTokenBalances } from '../accounts/format.ts';
import { optimizedSnapshotSearch } from '../accounts/history.ts';
import { balanceParam } from '../accounts/list.ts';
import { accountIdPageLink } from '../accounts/page-link.ts';
import { balanceAccountFilters } from './account-filter.ts';

const min = (a: bigint, b: bigint) => (a < b ? a : b);
const max = (a: bigint, b: bigint) => (a > b ? a : b);

/** The latest balance time among the rows (null when none has one). */
function latestTimestamp(rows: readonly BalanceRow[]): string | null {
  let latest: bigint | null = null;
  for (const row of rows) {
    if (row.consensus_timestamp === null) continue;
    const value = BigInt(row.consensus_timestamp);
    if (latest === null || value > latest) latest = value;
  }
  return timestampString(latest);
}

/**
 * `GET /api/v1/balances`: hbar and token balances by account, now (from the entities) or, with `timestamp`, as of
 * the latest balance snapshot the filter allows (`eq` reads as "at or before").
 */
export const balanceRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const config = c.get('config');
  const db = c.get('db');
  const search = pathAndQuery(c.req.url).query;
  const maxRepeated = config.query.maxRepeatedQueryParameters;
  const filters = parseQuery(
    search,
    {
      'account.balance': balanceParam,
      // any value passes validation here; the route reads ids, addresses and aliases itself
      'account.id': (value: string) => value,
      'account.publickey': publicKeyParam,
      limit: limitParam(c.get('maxLimit')),
      order: orderParam,
      timestamp: timestampParam,
    },
    { maxRepeated, legacy: true },
  );
  const ids = await balanceAccountFilters(
    db,
    filters.flatMap((f) => (f.key === 'account.id' ? [f] : [])),
    config,
  );
  const limit = resolveLimit(filters, config.response.limit.default);
  const order = legacyOrder(search, maxRepeated, 'desc');
  const balances = filters.flatMap((f) =>
    f.key === 'account.balance' ? [{ operator: f.operator, value: f.value }] : [],
  );
  const publicKeys = filters.flatMap((f) =>
    f.key === 'account.publickey' ? [{ operator: f.operator, value: f.value }] : [],
  );
  const timestamps = filters.flatMap((f) => (f.key === 'timestamp' ? [f] : []));
  const tokenLimit = config.response.limit.tokenBalance.multipleAccounts;

  let rows: BalanceRow[] = [];
  if (timestamps.length === 0) {
    rows = await currentBalances(db, { ids, balances, publicKeys, order, limit, tokenLimit });
  } else {
    let lower = 0n;
    let upper = MAX_LONG;
    const ne: bigint[] = [];
    for (const { operator, value } of timestamps) {
      if (operator === 'gt' || operator === 'gte') lower = max(lower, operator === 'gt' ? value + 1n : value);
      else if (operator === 'lt') upper = min(upper, value - 1n);
      else if (operator === 'lte' || operator === 'eq') upper = min(upper, value);
      else ne.push(value);
    }
    const snapshot = optimizedSnapshotSearch(lower, upper, ne, c.get('now')());
    // Public key filters apply as equality here; two different keys match nothing.
    const keys = new Set(publicKeys.map((f) => f.value));
    if (snapshot && keys.size <= 1) {
      const [publicKey] = keys;
      rows = await snapshotBalances(db, { ids, balances, publicKey, snapshot, order, limit, tokenLimit });
    }
  }

  const items = rows.map((row) => ({
    account: entityId(row.account_id),
    balance: int64(row.balance),
    tokens: formatTokenBalances(row.token_balances),
  }));
  const next = accountIdPageLink(c, { items: items, limit, order, maxRepeated });
  return jsonResponse({ timestamp: latestTimestamp(rows), balances: items, links: { next } });
});
