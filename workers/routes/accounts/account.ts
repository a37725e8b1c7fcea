import type { Context } from 'hono';
import {
  currentAccount,
  currentAccountByAddress,
  historicalAccount,
  type TimestampFilter,
} from '../../../db/queries/accounts.ts';
import { type ConsensusBounds, listTransactions } from '../../../db/queries/transactions-list.ts';
import type { AppEnv } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { limitParam, orderParam, resolveLimit, resolveOrder } from '../../params/limit-order.ts';
import { type FilterOf, lastValue } from '../../params/query.ts';
import { requestFilters } from '../../params/request-query.ts';
import { booleanParam } from '../../params/scalars.ts';
import { looseTimestampRange, type TimestampRange, timestampParam } from '../../params/timestamp.ts';
import { transactionTypeParam } from '../../params/transaction-filters.ts';
import { jsonResponse } from '../../respond.ts';
import { formatTransaction } from '../transactions/format.ts';
import { transactionPageLink } from '../transactions/page-link.ts';
import { boundTimeWindow } from '../transactions/time-window.ts';
import {
  ACCOUNT_PATH_PARAM,
  accountKey,
  entityAddress,
  lookUpAccountKey,
  noMatch,
  requireOneMatch,
} from './account-id.ts';
import { formatAccount } from './format.ts';
import { snapshotSearch } from './history.ts';
import { startupDefaultLimit } from './startup-limit.ts';

/** An account changes with every transfer: cached for two seconds. */
const ACCOUNT_MAX_AGE = 2;

/** `GET /api/v1/accounts/{idOrAliasOrEvmAddress}`: the account, its balances and a page of its transactions. */
export async function getAccount(c: Context<AppEnv>): Promise<Response> {
  const config = c.get('config');
  const db = c.get('db');
  const filters = requestFilters(c, querySpec(c.get('maxLimit')));
  const key = accountKey(c.req.param(ACCOUNT_PATH_PARAM) ?? '', config);
  const timestampFilters = filters.filter((f) => f.key === 'timestamp');
  const tokenLimit = config.response.limit.tokenBalance.singleAccount;
  const includeTransactions = lastValue(filters, 'transactions') ?? true;

  // An EVM address or alias is looked up in the account's own statement: `?transactions=false` (how relays read a
  // balance or nonce) waits for one round trip instead of two, and the page of transactions follows with the id.
  if (!('id' in key) && timestampFilters.length === 0) {
    const found = await currentAccountByAddress(db, { address: entityAddress(key), tokenLimit });
    requireOneMatch(found.matches);
    if (found.matches === 0) throw noMatch(key);
    if (!found.account) throw ApiError.notFound();
    const page = includeTransactions
      ? await transactionPage(c, BigInt(found.account.id), filters, looseTimestampRange(timestampFilters, config.query))
      : noTransactions();
    return jsonResponse(
      { ...formatAccount(found.account, { delegationAddress: config.response.enableDelegationAddress }), ...page },
      { maxAge: ACCOUNT_MAX_AGE },
    );
  }

  const id = await lookUpAccountKey(db, key);
  if (id === null) throw ApiError.notFound();
  const range = looseTimestampRange(timestampFilters, config.query);
  if (range.empty) throw ApiError.notFound('Timestamp range is empty');

  const filter: TimestampFilter = { lower: range.lower, upper: range.upper, eq: range.eq, ne: range.ne };
  // The page of transactions needs the account's id, not its row: both statements leave together, as the reference
  // runs them, so the route waits on one round trip to the database (docs/adr/0023-topology.md).
  const account =
    timestampFilters.length > 0
      ? historicalAccount(db, {
          id,
          tokenLimit,
          timestamp: filter,
          snapshot: snapshotSearch(filter, c.get('now')()),
        })
      : currentAccount(db, { id, tokenLimit });
  const page = includeTransactions ? transactionPage(c, id, filters, range) : Promise.resolve(noTransactions());
  // A missing account answers 404 whatever became of its page; the page's failure is then nobody's to report.
  page.catch(() => {});
  const row = await account;
  if (!row) throw ApiError.notFound();
  return jsonResponse(
    { ...formatAccount(row, { delegationAddress: config.response.enableDelegationAddress }), ...(await page) },
    { maxAge: ACCOUNT_MAX_AGE },
  );
}

const noTransactions = () => ({ transactions: [], links: { next: null } });

const querySpec = (maxLimit: number) => ({
  limit: limitParam(maxLimit),
  order: orderParam,
  timestamp: timestampParam,
  transactiontype: transactionTypeParam,
  transactions: booleanParam,
});

type AccountFilters = FilterOf<ReturnType<typeof querySpec>>[];

/**
 * The account's transactions, as `GET /api/v1/transactions?account.id=<id>` lists them (paid by it, transferring
 * to or from it, or linked to it), with that route's paging: a short page ends the list unless the time window
 * (`query.bindTimestampRange`) cut the search short.
 */
async function transactionPage(c: Context<AppEnv>, id: bigint, filters: AccountFilters, range: TimestampRange) {
  const config = c.get('config');
  const db = c.get('db');
  const limit = resolveLimit(filters, startupDefaultLimit(c));
  const order = resolveOrder(filters, 'desc');
  if (range.eq.length > 1) return { transactions: [], links: { next: null } };

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
  const rows = await listTransactions(db, {
    accounts: [{ operator: 'eq', account: id }],
    types: filters.flatMap((f) => (f.key === 'transactiontype' ? [f.value] : [])),
    timestamp: bounds,
    order,
    limit,
    precedingTypes: config.query.transactions.precedingTransactionTypes,
  });
  const transactions = rows.map(formatTransaction);

  const next = transactionPageLink({ url: c.req.url, config, order, limit, transactions, windowEnd });
  return { transactions, links: { next } };
}
