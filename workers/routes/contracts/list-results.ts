import type { Context } from 'hono';
import { committedValue } from '../../../db/queries/committed-end.ts';
import type { Comparison } from '../../../db/queries/comparison.ts';
import {
  type BlockKey,
  type ContractResultsQuery,
  contractResults,
  contractResultsWithDetails,
} from '../../../db/queries/contract-results.ts';
import { entityIdsByEvmAddresses } from '../../../db/queries/contracts.ts';
import type { AppEnv } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { cacheControlFor } from '../../finality/freshness.ts';
import { inclusiveUpper, isFinalPage } from '../../finality/page.ts';
import { parseEntityId } from '../../params/entity-id.ts';
import { limitParam, orderParam, resolveLimit, resolveOrder } from '../../params/limit-order.ts';
import { parseQuery } from '../../params/query.ts';
import { booleanParam } from '../../params/scalars.ts';
import { formatTimestamp, timestampParam } from '../../params/timestamp.ts';
import { pathAndQuery } from '../../request-url.ts';
import { jsonResponse } from '../../respond.ts';
import { checkContractIdPath, opaqueEvmAddress, resolveContractId } from './contract-id.ts';
import { formatContractResult, formatContractResultDetails } from './format-result.ts';
import { contractsNextLink } from './paging.ts';
import {
  blockHashParam,
  checkBlockFilterUsage,
  contractBlockNumberParam,
  fromParam,
  resolveHbar,
  type SenderFilter,
  transactionIndexParam,
} from './params.ts';
import { timestampWindow } from './timestamp-window.ts';

/**
 * New results arrive at the head of the lists: the reference's max-ages (ten seconds for all results, one for a
 * contract's). A contract result is written once, with its transaction; a page the ingest can no longer add to is
 * final (workers/finality/page.ts), as is any page of a block that exists (a block's results are all written with it).
 */
const ALL_RESULTS_MAX_AGE = 10;

/** Whether a page of `query` with these rows can no longer change. */
function isFinalResultsPage(query: ResultsQuery, rows: number, committed: bigint | null): boolean {
  if (query.block !== undefined && rows > 0 && committed !== null) return true;
  const eq = query.timestamps.map((value) => ({ operator: 'eq', value }));
  const upper = inclusiveUpper([...query.timestampComparisons, ...eq]);
  return isFinalPage({ order: query.order, limit: query.limit, rows, upper, committed });
}

function parseResultsQuery(c: Context<AppEnv>) {
  const config = c.get('config');
  const search = pathAndQuery(c.req.url).query;
  const maxRepeated = config.query.maxRepeatedQueryParameters;
  const filters = parseQuery(
    search,
    {
      from: fromParam(config.common),
      'block.hash': blockHashParam,
      'block.number': contractBlockNumberParam,
      hbar: booleanParam,
      internal: booleanParam,
      limit: limitParam(c.get('maxLimit')),
      order: orderParam,
      timestamp: timestampParam,
      'transaction.index': transactionIndexParam,
    },
    { maxRepeated },
  );
  checkBlockFilterUsage(search, maxRepeated);
  return { filters, search, maxRepeated };
}

type ResultsFilters = ReturnType<typeof parseResultsQuery>['filters'];

/**
 * The senders' encoded ids: EVM addresses that are not long-zero aliases belong to one live entity each (none is a
 * 404, several a 500, for the first such address in the order given).
 */
async function resolveSenders(c: Context<AppEnv>, senders: readonly SenderFilter[]): Promise<bigint[]> {
  const addresses = senders.flatMap((s) => (s.kind === 'evm-address' ? (opaqueEvmAddress(s.address) ?? []) : []));
  const byAddress = await entityIdsByEvmAddresses(c.get('db'), addresses, false);
  return senders.map((sender) => {
    if (sender.kind === 'id') return sender.id;
    const address = opaqueEvmAddress(sender.address);
    if (address === undefined) {
      const alias = parseEntityId(sender.address, c.get('config').common);
      if (alias?.kind !== 'num') throw ApiError.invalidParams('from');
      return alias.encoded;
    }
    const found = byAddress.get(address.toLowerCase()) ?? [];
    if (found.length === 0) throw ApiError.notFound();
    if (found.length > 1) throw ApiError.internal(new Error(`several entities with the evm address ${address}`));
    return found[0] as bigint;
  });
}

type ResultsQuery = ContractResultsQuery & { timestamps: bigint[]; timestampComparisons: Comparison<bigint>[] };

/** The query both result lists share: senders, block, transaction index, nonce, page (timestamps come later). */
async function baseQuery(c: Context<AppEnv>, filters: ResultsFilters): Promise<ResultsQuery> {
  const senderFilters = filters.flatMap((f) => (f.key === 'from' ? [f] : []));
  const senderIds = await resolveSenders(
    c,
    senderFilters.map((f) => f.value),
  );
  const senders: bigint[] = [];
  const senderComparisons: Comparison<bigint>[] = [];
  senderFilters.forEach(({ operator }, i) => {
    const id = senderIds[i] as bigint;
    if (operator === 'eq') senders.push(id);
    else senderComparisons.push({ operator, value: id });
  });
  let block: BlockKey | undefined;
  const transactionIndexes: bigint[] = [];
  let internal = false;
  for (const filter of filters) {
    if (filter.key === 'block.number') block = { number: filter.value };
    else if (filter.key === 'block.hash') block = { hashPrefix: filter.value };
    else if (filter.key === 'transaction.index') transactionIndexes.push(filter.value);
    else if (filter.key === 'internal') internal = filter.value;
  }
  return {
    senders,
    senderComparisons,
    timestamps: [],
    timestampComparisons: [],
    transactionIndexes,
    block,
    internal,
    order: resolveOrder(filters, 'desc'),
    limit: resolveLimit(filters, c.get('config').response.limit.default),
  };
}

const timestampFilters = (filters: ResultsFilters) => filters.flatMap((f) => (f.key === 'timestamp' ? [f] : []));

/** `GET /contracts/{contractIdOrAddress}/results`: the contract's results, as stored. */
export async function listContractResultsRoute(c: Context<AppEnv>): Promise<Response> {
  const text = c.req.param('contractId') ?? '';
  checkContractIdPath(text);
  const { filters } = parseResultsQuery(c);
  const contractId = await resolveContractId(c.get('db'), text, c.get('config').common);
  const query = await baseQuery(c, filters);
  // the reference drops the contract condition for contract 0
  if (contractId !== 0n) query.contractId = contractId;
  for (const { operator, value } of timestampFilters(filters)) {
    if (operator === 'eq') query.timestamps.push(value);
    else query.timestampComparisons.push({ operator, value });
  }

  const rows = await contractResults(c.get('db'), query);
  const results = rows.map(formatContractResult);
  const last = results[results.length - 1];
  const next =
    last && results.length === query.limit
      ? contractsNextLink(c, query.order, { timestamp: last.timestamp ?? '' })
      : null;
  // An EVM address may name another contract later (a CREATE2 at the address of a deleted one): by id only.
  const final =
    opaqueEvmAddress(text) === undefined &&
    isFinalResultsPage(query, rows.length, committedValue(rows[0]?.committed_end));
  return jsonResponse({ results, links: { next } }, { cacheControl: cacheControlFor(c, final) });
}

/**
 * `GET /contracts/results`: results of all contracts with their blocks and Ethereum transactions. The timestamp
 * filters fold into one window (see `timestampWindow`); a window cut short continues on the next page.
 */
export async function listAllResultsRoute(c: Context<AppEnv>): Promise<Response> {
  const config = c.get('config');
  const db = c.get('db');
  const { filters, search, maxRepeated } = parseResultsQuery(c);
  const hbar = resolveHbar(search, maxRepeated);
  const query = await baseQuery(c, filters);
  const empty = (final = false) =>
    jsonResponse(
      { results: [], links: { next: null } },
      { cacheControl: cacheControlFor(c, final, ALL_RESULTS_MAX_AGE) },
    );

  // a block bounds the range itself, so it is never cut to a window
  const bind = config.query.bindTimestampRange && query.block === undefined;
  const window = await timestampWindow(timestampFilters(filters), query.order, {
    config,
    db,
    now: c.get('now')(),
    bind,
  });
  if (window.empty) return empty();
  if (window.lower !== undefined) query.timestampComparisons.push({ operator: 'gte', value: window.lower });
  if (window.upper !== undefined) query.timestampComparisons.push({ operator: 'lte', value: window.upper });
  query.timestamps.push(...window.eq);
  for (const value of window.ne) query.timestampComparisons.push({ operator: 'ne', value });

  const closeInterval = BigInt(config.query.maxRecordFileCloseIntervalNs);
  const { rows, committedEnd } = await contractResultsWithDetails(db, query, closeInterval);
  // A window bound to the clock (query.bindTimestampRange) moves with it: never final.
  const final = !bind && isFinalResultsPage(query, rows.length, committedEnd);
  const results = rows.map((row) =>
    formatContractResultDetails(row, {
      block: row,
      ethereum: row.et_found ? row : undefined,
      hbar,
      delegation: config.response.enableDelegationAddress,
    }),
  );
  if (results.length === 0) return empty(final);
  const isEnd = results.length !== query.limit;
  const last = results[results.length - 1];
  let next: string | null = null;
  if (!isEnd && last) next = contractsNextLink(c, query.order, { timestamp: String(last.timestamp) });
  else if (window.next !== undefined)
    next = contractsNextLink(c, query.order, { timestamp: formatTimestamp(window.next) });
  return jsonResponse({ results, links: { next } }, { cacheControl: cacheControlFor(c, final, ALL_RESULTS_MAX_AGE) });
}
