import { Hono } from 'hono';
import type { AppEnv } from '../../context.ts';
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
import { loadSystemFiles } from './system-files.ts';

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
    const [rates] = await loadSystemFiles(
      c.get('db'),
      [{ id: systemFileId(network, EXCHANGE_RATE_FILE), message: EXCHANGE_RATE_SET }],
      timestampBound(timestamps),
    );
    if (!rates) throw javaNotFound(`File ${systemFileName(network, EXCHANGE_RATE_FILE)} not found`);
    return jsonResponse(formatExchangeRateSet(rates), { maxAge: NETWORK_MAX_AGE });
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
    const [schedule, rates] = await loadSystemFiles(
      c.get('db'),
      [
        { id: systemFileId(network, FEE_SCHEDULE_FILE), message: CURRENT_AND_NEXT_FEE_SCHEDULE },
        { id: systemFileId(network, EXCHANGE_RATE_FILE), message: EXCHANGE_RATE_SET },
      ],
      bound,
    );
    if (!schedule) throw javaNotFound(`File ${systemFileName(network, FEE_SCHEDULE_FILE)} not found`);
    if (!rates) throw javaNotFound(`File ${systemFileName(network, EXCHANGE_RATE_FILE)} not found`);
    return jsonResponse(formatFees(schedule, rates, bound, order), { maxAge: NETWORK_MAX_AGE });
  });
