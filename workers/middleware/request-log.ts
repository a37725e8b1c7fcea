import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.ts';

export interface RequestLine {
  method: string;
  url: string;
  status: number;
  ms: number;
  cache: AppEnv['Variables']['cache'];
  rateLimit: AppEnv['Variables']['rateLimit'];
}

/** One structured line per request: what was asked, what was answered, and how long it took. */
export function logRequest(line: RequestLine): void {
  const url = new URL(line.url);
  console.log(
    JSON.stringify({
      msg: 'request',
      method: line.method,
      path: url.pathname,
      query: url.search,
      status: line.status,
      ms: Math.round(line.ms * 10) / 10,
      cache: line.cache,
      rateLimit: line.rateLimit,
    }),
  );
}

/** The request line of every request the app routes. */
export const requestLog: MiddlewareHandler<AppEnv> = async (c, next) => {
  const started = performance.now();
  await next();
  logRequest({
    method: c.req.method,
    url: c.req.url,
    status: c.res.status,
    ms: performance.now() - started,
    cache: c.var.cache,
    rateLimit: c.var.rateLimit,
  });
};
