import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.ts';
import { flushFailureLines } from '../failure-line.ts';
import { logRequest } from './request-line.ts';

/** The request line of every request the app routes; then the summaries of failures that stopped repeating. */
export const requestLog: MiddlewareHandler<AppEnv> = async (c, next) => {
  const started = performance.now();
  await next();
  logRequest(
    {
      method: c.req.method,
      url: c.req.url,
      status: c.res.status,
      ms: performance.now() - started,
      cache: c.get('cache'),
      rateLimit: c.get('rateLimit'),
    },
    { batchMs: c.get('config').edge.log.batch, waitUntil: (promise) => c.executionCtx.waitUntil(promise) },
  );
  flushFailureLines();
};
