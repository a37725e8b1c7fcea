import { Hono } from 'hono';
import type { AppEnv } from '../../../context.ts';
import { servletParams } from '../../../params/java/servlet-query.ts';
import { pathAndQuery } from '../../../request-url.ts';
import { jsonResponse } from '../../../respond.ts';
import { systemFileId } from '../common.ts';
import { estimateFee } from './estimate.ts';
import { formatEstimate } from './format.ts';
import { mirrorLedger } from './ledger-state.ts';
import { checkContentType, estimateParams, readBody } from './request.ts';
import { currentSchedule } from './schedule-cache.ts';
import { readTransaction } from './transaction.ts';

/** System file 0.0.113: the simple-fees schedule (HIP-1261). */
const SIMPLE_FEES_FILE = 113;

/**
 * `POST /network/fees`: the fee of a signed transaction, estimated as the consensus node would charge it. The
 * body is checked first (media type, size, presence), then the parameters, then the transaction is read.
 */
export const feeEstimateRoutes = new Hono<AppEnv>().post('/fees', async (c) => {
  checkContentType(c.req.header('content-type'));
  const bytes = await readBody(c.req.raw);
  const { mode, highVolumeThrottle } = estimateParams(servletParams(pathAndQuery(c.req.url).query));
  const transaction = readTransaction(bytes);
  const db = c.get('db');
  const schedule = await currentSchedule(db, systemFileId(c.get('config').common, SIMPLE_FEES_FILE), c.get('now')());
  const result = await estimateFee({
    transaction,
    schedule,
    state: mode === 'STATE' ? { ledger: mirrorLedger(db), highVolumeThrottle } : undefined,
  });
  // an estimate answers one body: nothing to cache
  return jsonResponse(formatEstimate(result), { maxAge: 0 });
});
