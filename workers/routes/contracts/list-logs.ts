import type { Context } from 'hono';
import { committedValue } from '../../../db/queries/committed-end.ts';
import { contractLogs, transactionTimestampByHash } from '../../../db/queries/contract-logs.ts';
import type { Config } from '../../config/config.ts';
import type { AppEnv } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { cacheControlFor } from '../../finality/freshness.ts';
import { inclusiveUpper, isFinalPage } from '../../finality/page.ts';
import type { CursorValue } from '../../format/pagination.ts';
import type { Filter } from '../../params/filters.ts';
import { limitParam, type Order, orderParam, resolveLimit, resolveOrder } from '../../params/limit-order.ts';
import { requestFilters } from '../../params/request-query.ts';
import { formatTimestamp, timestampParam, timestampRange } from '../../params/timestamp.ts';
import { jsonResponse } from '../../respond.ts';
import { checkContractIdPath, opaqueEvmAddress, resolveContractId } from './contract-id.ts';
import { formatLog } from './format-log.ts';
import {
  addFilter,
  type Bound,
  boundFilters,
  hasRange,
  isEmptyBound,
  logPageParts,
  newBound,
  validateLogBounds,
} from './log-bounds.ts';
import { contractsNextLink } from './paging.ts';
import { indexParam, topicParam, transactionHashParam } from './params.ts';
import { timestampWindow } from './timestamp-window.ts';

const ALL_LOGS_MAX_AGE = 10;
const TOPIC_KEYS = ['topic0', 'topic1', 'topic2', 'topic3'] as const;

function logParams(maxLimit: number, withTransactionHash: boolean) {
  return {
    index: indexParam,
    limit: limitParam(maxLimit),
    order: orderParam,
    timestamp: timestampParam,
    topic0: topicParam,
    topic1: topicParam,
    topic2: topicParam,
    topic3: topicParam,
    ...(withTransactionHash ? { 'transaction.hash': transactionHashParam } : {}),
  };
}

type LogFilter = Filter<string, unknown>;

/** `timestamp=gte:t&timestamp=lte:t` (and nothing else on timestamp) means `timestamp=t`, moved to the end. */
function mergeSingleInstant(filters: readonly LogFilter[]): LogFilter[] {
  const timestamps = filters.filter((f) => f.key === 'timestamp');
  const [a, b] = timestamps;
  if (
    timestamps.length !== 2 ||
    !a ||
    !b ||
    a.value !== b.value ||
    !timestamps.some((f) => f.operator === 'gte') ||
    !timestamps.some((f) => f.operator === 'lte')
  ) {
    return [...filters];
  }
  return [...filters.filter((f) => f !== a && f !== b), { key: 'timestamp', operator: 'eq', value: a.value }];
}

/** Topic filters scan logs by time: they need a valid timestamp range within `query.maxTimestampRange`. */
function checkTopicSearchRange(filters: readonly LogFilter[], config: Config): void {
  if (!filters.some((f) => (TOPIC_KEYS as readonly string[]).includes(f.key))) return;
  try {
    timestampRange(
      filters.filter((f): f is Filter<string, bigint> => f.key === 'timestamp'),
      { maxRange: config.query.maxTimestampRange, maxRangeNs: BigInt(config.query.maxTimestampRangeNs) },
    );
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    throw ApiError.badRequest(`Cannot search topics without a valid timestamp range: ${error.message}`);
  }
}

/**
 * The reference's next link for logs: the last log's timestamp (inclusive unless an index is pinned by `eq`) and
 * index, for the bounds the request gave; `window` continues a range cut to the binding window.
 */
function logsNextLink(
  c: Context<AppEnv>,
  logs: readonly { timestamp: string | null; index: number }[],
  bounds: { primary: Bound; secondary: Bound; window?: bigint },
  limit: number,
  order: Order,
): string | null {
  const { primary, secondary, window } = bounds;
  const isEnd = logs.length < limit;
  if (window === undefined && (isEnd || (primary.equal && secondary.equal))) return null;
  const last = logs[logs.length - 1];
  const cursor: Record<string, CursorValue> = {};
  if (hasRange(primary) || isEmptyBound(primary)) {
    const value = !isEnd && last ? (last.timestamp ?? '') : formatTimestamp(window ?? 0n);
    cursor.timestamp = { value, inclusive: !secondary.equal, primary: true };
  }
  if ((hasRange(secondary) || isEmptyBound(secondary)) && last) cursor.index = last.index;
  return contractsNextLink(c, order, cursor);
}

async function listLogs(c: Context<AppEnv>, contractIdText: string | undefined): Promise<Response> {
  const config = c.get('config');
  const db = c.get('db');
  const maxAge = contractIdText === undefined ? ALL_LOGS_MAX_AGE : undefined;
  const empty = () => jsonResponse({ logs: [], links: { next: null } }, { maxAge });
  if (contractIdText !== undefined) checkContractIdPath(contractIdText);
  const parsed = requestFilters(c, logParams(c.get('maxLimit'), contractIdText === undefined)) as LogFilter[];
  const filters = mergeSingleInstant(parsed);
  checkTopicSearchRange(filters, config);
  let contractId: bigint | undefined;
  if (contractIdText !== undefined) {
    contractId = await resolveContractId(db, contractIdText, config.common);
    if (contractId === 0n) return empty();
  }

  const limit = resolveLimit(filters, config.response.limit.default);
  const order = resolveOrder(filters, 'desc');
  const primary = newBound('timestamp');
  const secondary = newBound('index');
  const topics: string[][] = [[], [], [], []];
  let transactionHash: string | undefined;
  for (const { key, operator, value } of filters) {
    if (key === 'index') addFilter(secondary, operator, value as number);
    else if (key === 'timestamp') addFilter(primary, operator, value as bigint);
    else if (key === 'transaction.hash') {
      if (transactionHash !== undefined) throw ApiError.badRequest('Only one transaction.hash filter is allowed');
      transactionHash = value as string;
    } else {
      const topic = (TOPIC_KEYS as readonly string[]).indexOf(key);
      if (topic >= 0) topics[topic]?.push(value as string);
    }
  }
  validateLogBounds(primary, secondary);

  let searched = primary;
  let window: bigint | undefined;
  const given = boundFilters(primary).map(({ operator, value }) => ({
    key: 'timestamp',
    operator,
    value: BigInt(value),
  }));
  if (transactionHash !== undefined) {
    const timestamp = await transactionTimestampByHash(
      db,
      transactionHash,
      given,
      order,
      config.response.limit.default,
    );
    if (timestamp === undefined) return empty();
    searched = { key: 'timestamp', equal: { operator: 'eq', value: timestamp } };
  } else if (contractId === undefined) {
    const range = await timestampWindow(given, order, {
      config,
      db,
      now: c.get('now')(),
      bind: config.query.bindTimestampRange,
    });
    // an empty range drops the timestamp bounds altogether, as in the reference
    searched = newBound('timestamp');
    if (range.lower !== undefined && !range.empty) searched.lower = { operator: 'gte', value: range.lower };
    if (range.upper !== undefined && !range.empty) searched.upper = { operator: 'lte', value: range.upper };
    const eq = range.eq[0];
    if (eq !== undefined && !range.empty) searched.equal = { operator: 'eq', value: eq };
    window = range.next;
  }

  const rows = await contractLogs(db, {
    contractId,
    topics,
    parts: logPageParts(searched, secondary),
    order,
    limit,
    closeIntervalNs: BigInt(config.query.maxRecordFileCloseIntervalNs),
  });
  const logs = rows.map(formatLog);
  const next = logsNextLink(c, logs, { primary, secondary, window }, limit, order);
  // A hash may pick another transaction later, an EVM address another contract, a clock-bound window moves: only
  // pages of timestamps given directly, of a contract given by id, can be final (workers/finality/page.ts).
  const final =
    transactionHash === undefined &&
    window === undefined &&
    !(contractId === undefined && config.query.bindTimestampRange) &&
    (contractIdText === undefined || opaqueEvmAddress(contractIdText) === undefined) &&
    isFinalPage({
      order,
      limit,
      rows: rows.length,
      upper: inclusiveUpper(boundFilters(searched).map(({ operator, value }) => ({ operator, value: BigInt(value) }))),
      committed: committedValue(rows[0]?.committed_end),
    });
  return jsonResponse({ logs, links: { next } }, { cacheControl: cacheControlFor(c, final, maxAge) });
}

/** `GET /contracts/results/logs`: logs of all contracts, by timestamp and index, topics or transaction hash. */
export const listAllLogsRoute = (c: Context<AppEnv>): Promise<Response> => listLogs(c, undefined);

/** `GET /contracts/{contractIdOrAddress}/results/logs`: the logs one contract emitted. */
export const listContractLogsRoute = (c: Context<AppEnv>): Promise<Response> =>
  listLogs(c, c.req.param('contractId') ?? '');
