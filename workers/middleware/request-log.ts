import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.ts';

/** One structured line per request: what was asked, what was answered, and how long it took. */
export const requestLog: MiddlewareHandler<AppEnv> = async (c, next) => {
  const started = performance.now();
  await next();
  const url = new URL(c.req.url);
  console.log(
    JSON.stringify({
      msg: 'request',
      method: c.req.method,
      path: url.pathname,
      query: url.search,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      cache: c.var.cache,
      rateLimit: c.var.rateLimit,
    }),
  );
};
