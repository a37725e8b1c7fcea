import { Hono } from 'hono';
import type { Database } from '../../../db/client.ts';
import { SUCCESS_CODES } from '../../../db/codes/response-codes.ts';
import { SCHEDULE_CREATE_TYPE } from '../../../db/codes/transaction-types.ts';
import { committedValue } from '../../../db/queries/committed-end.ts';
import { type TransactionRow, transactionsByHash, transactionsByKeys } from '../../../db/queries/transactions.ts';
import type { Config } from '../../config/config.ts';
import type { AppEnv } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { cacheControlFor } from '../../finality/freshness.ts';
import { parseTransactionByIdQuery } from '../../params/query.ts';
import { parseTransactionIdOrHash } from '../../params/transaction-id.ts';
import { pathAndQuery } from '../../request-url.ts';
import { jsonResponse } from '../../respond.ts';
import { formatTransaction } from './format.ts';
import { transactionListRoute } from './list.ts';

/**
 * A transaction is immutable once it has reached consensus: cached for ten minutes, and final once the ingest has
 * committed past the window in which more transactions of its id may still arrive (docs/adr/0045).
 */
const TRANSACTION_MAX_AGE = 600;
/** A schedule created moments ago may still execute: its answer changes until then. */
const RECENT_SCHEDULE_MAX_AGE = 5;

/** `/api/v1/transactions`: the list, and the transactions of one id or hash. */
export const transactionRoutes = new Hono<AppEnv>()
  .route('/', transactionListRoute)
  .get('/:transactionIdOrHash', async (c) => {
    const config = c.get('config');
    const search = pathAndQuery(c.req.url).query;
    const { nonce, scheduled } = parseTransactionByIdQuery(search, {
      maxRepeated: config.query.maxRepeatedQueryParameters,
    });
    const target = parseTransactionIdOrHash(c.req.param('transactionIdOrHash'), config.common);
    const db = c.get('db');
    const drift = BigInt(config.query.maxValidStartTimestampDriftNs);
    const consensusWindow = BigInt(config.query.maxTransactionConsensusTimestampRangeNs);
    const scheduleWindow = BigInt(config.query.maxScheduledTransactionConsensusTimestampRangeNs);

    let rows: TransactionRow[];
    /**
     * The end of the consensus window every row the answer may ever hold falls in: a duplicate submission lands
     * within the window after its valid start, a scheduled execution within the schedule window searched.
     */
    let windowEnd: bigint;
    if (target.kind === 'hash') {
      rows = await transactionsByHash(db, target.hash, { limit: config.response.limit.default, nonce, scheduled });
      windowEnd = rows.reduce((end, row) => later(end, BigInt(row.valid_start_ns) + consensusWindow), 0n);
    } else {
      const lookup = {
        keys: [{ payer: target.payer, timestamp: target.validStartNs }],
        by: 'valid_start_ns' as const,
        lowerNs: target.validStartNs - drift,
        upperNs: target.validStartNs + consensusWindow,
        nonce,
        scheduled,
      };
      rows = await transactionsByKeys(db, lookup);
      windowEnd = lookup.upperNs;
      // A scheduled transaction executes when its schedule is signed, possibly months after its valid start.
      if (mayMissScheduledExecution(rows, scheduled)) {
        windowEnd = lookup.lowerNs + scheduleWindow;
        rows = await transactionsByKeys(db, { ...lookup, upperNs: windowEnd });
      }
      if (rows.length > 0) {
        const inner = await innerTransactions(db, rows, config, { nonce, scheduled });
        windowEnd = later(windowEnd, inner.windowEnd);
        rows.push(...inner.rows);
      }
    }
    if (rows.length === 0) throw ApiError.notFound();

    // Final once the ingest has committed past the window: no duplicate, child or execution can join it then.
    const committed = committedValue(rows[0]?.committed_end);
    const final = committed !== null && committed >= windowEnd;
    const maxAge =
      target.kind === 'id' && scheduled === undefined
        ? scheduleAwareMaxAge(rows, c.get('now')(), scheduleWindow)
        : TRANSACTION_MAX_AGE;
    return jsonResponse(
      { transactions: rows.map(formatTransaction) },
      { cacheControl: cacheControlFor(c, final, maxAge) },
    );
  });

const later = (a: bigint, b: bigint) => (a > b ? a : b);

/**
 * The inner transactions of atomic batches among `rows`: `inner_transactions` lists them as (payer, valid start)
 * pairs, and they are looked up like any transaction id.
 */
async function innerTransactions(
  db: Database,
  rows: readonly TransactionRow[],
  config: Config,
  filters: { nonce?: number; scheduled?: boolean },
): Promise<{ rows: TransactionRow[]; windowEnd: bigint }> {
  const pairs = rows.flatMap((row) => row.inner_transactions ?? []).map(BigInt);
  if (pairs.length === 0) return { rows: [], windowEnd: 0n };
  const keys = [];
  for (let i = 0; i + 1 < pairs.length; i += 2)
    keys.push({ payer: pairs[i] as bigint, timestamp: pairs[i + 1] as bigint });
  const validStarts = keys.map((key) => key.timestamp);
  const first = validStarts.reduce((a, b) => (b < a ? b : a));
  const last = validStarts.reduce(later);
  const upperNs = last + BigInt(config.query.maxTransactionConsensusTimestampRangeNs);
  const found = await transactionsByKeys(db, {
    keys,
    by: 'valid_start_ns',
    lowerNs: first - BigInt(config.query.maxValidStartTimestampDriftNs),
    upperNs,
    ...filters,
  });
  return { rows: found, windowEnd: upperNs };
}

const isSuccessfulScheduleCreate = (row: TransactionRow) =>
  row.type === SCHEDULE_CREATE_TYPE && SUCCESS_CODES.includes(row.result);

/**
 * True when the window after the valid start may have cut off the scheduled execution: a schedule was created
 * and its execution is not among the rows, or `scheduled=true` found nothing.
 */
function mayMissScheduledExecution(rows: readonly TransactionRow[], scheduled: boolean | undefined): boolean {
  if (scheduled === false) return false;
  if (scheduled === true) return rows.length === 0;
  if (rows.some((row) => row.scheduled)) return false;
  return rows.some(isSuccessfulScheduleCreate);
}

/**
 * Ten minutes, unless a schedule created within the scheduled-execution window has not executed yet: its
 * execution may still appear, so the answer is cached for seconds.
 */
function scheduleAwareMaxAge(rows: readonly TransactionRow[], nowNs: bigint, windowNs: bigint): number {
  let maxAge = TRANSACTION_MAX_AGE;
  for (const row of rows) {
    if (row.scheduled) return TRANSACTION_MAX_AGE;
    if (isSuccessfulScheduleCreate(row)) {
      const elapsed = nowNs - BigInt(row.consensus_timestamp);
      if (elapsed < windowNs) maxAge = RECENT_SCHEDULE_MAX_AGE;
    }
  }
  return maxAge;
}
