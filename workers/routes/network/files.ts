import { Hono } from 'hono';
import type { AppEnv } from '../../context.ts';
import { cacheControlFor } from '../../finality/freshness.ts';
import { requestParam } from '../../params/java/binding.ts';
import { timestampBound } from '../../params/java/bound.ts';
import { javaNotFound } from '../../params/java/errors.ts';
import { parseDirection } from '../../params/java/numbers.ts';
import { servletParams } from '../../params/java/servlet-query.ts';
import { pathAndQuery } from '../../request-url.ts';
import { jsonResponse } from '../../respond.ts';
import {
  checkTimestampCount,
  NETWORK_MAX_AGE,
  setNetworkCacheControl,
  systemFileId,
  systemFileName,
  timestampRequestParam,
} from './common.ts';
import { formatExchangeRateSet, formatFees } from './format-fees.ts';
import { CURRENT_AND_NEXT_FEE_SCHEDULE, EXCHANGE_RATE_SET } from './system-file-schemas.ts';
import { readSystemFiles } from './system-files.ts';

const FEE_SCHEDULE_FILE = 111;
const EXCHANGE_RATE_FILE = 112;

/** `/network/exchangerate` and `/network/fees`, read from the exchange rate and fee schedule system files. */
export const fileRoutes = new Hono<AppEnv>()
  .get('/exchangerate', async (c) => {
    setNetworkCacheControl(c);
    const params = servletParams(pathAndQuery(c.req.url).query);
    const timestamps = timestampRequestParam(params);
    checkTimestampCount(timestamps);
    const network = c.get('config').common;
    const bound = timestampBound(timestamps);
    const { files, committedEnd } = await readSystemFiles(
      c.get('db'),
      [{ id: systemFileId(network, EXCHANGE_RATE_FILE), message: EXCHANGE_RATE_SET }],
      bound,
    );
    const [rates] = files;
    if (!rates) throw javaNotFound(`File ${systemFileName(network, EXCHANGE_RATE_FILE)} not found`);
    const final = isSettledBound(bound, committedEnd);
    return jsonResponse(formatExchangeRateSet(rates), { cacheControl: cacheControlFor(c, final, NETWORK_MAX_AGE) });
  })
  .get('/fees', async (c) => {
    setNetworkCacheControl(c);
    const params = servletParams(pathAndQuery(c.req.url).query);
    const timestamps = timestampRequestParam(params);
    const order =
      requestParam(params, 'order', {
        defaultValue: 'ASC',
        convert: (arg) => parseDirection(typeof arg === 'string' ? arg : (arg[0] as string)),
      }) ?? 'asc';
    checkTimestampCount(timestamps);
    const network = c.get('config').common;
    const bound = timestampBound(timestamps);
    const { files, committedEnd } = await readSystemFiles(
      c.get('db'),
      [
        { id: systemFileId(network, FEE_SCHEDULE_FILE), message: CURRENT_AND_NEXT_FEE_SCHEDULE },
        { id: systemFileId(network, EXCHANGE_RATE_FILE), message: EXCHANGE_RATE_SET },
      ],
      bound,
    );
    const [schedule, rates] = files;
    if (!schedule) throw javaNotFound(`File ${systemFileName(network, FEE_SCHEDULE_FILE)} not found`);
    if (!rates) throw javaNotFound(`File ${systemFileName(network, EXCHANGE_RATE_FILE)} not found`);
    const final = isSettledBound(bound, committedEnd);
    return jsonResponse(formatFees(schedule, rates, bound, order), {
      cacheControl: cacheControlFor(c, final, NETWORK_MAX_AGE),
    });
  });

/**
 * A file as of a timestamp at or below the newest committed record file can no longer change: every later write
 * is stamped after it (docs/adr/0045). Without a timestamp the answer is the current file: never final.
 */
const isSettledBound = (bound: { upper: bigint }, committedEnd: bigint | null) =>
  committedEnd !== null && bound.upper <= committedEnd;
