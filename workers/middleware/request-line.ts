import { pathAndQuery } from '../request-url.ts';

/** How the edge cache treated a request. */
export type CacheOutcome = 'hit' | 'miss' | 'off';

/** The rate limiter's decision on a request. */
export type RateLimitOutcome = 'allowed' | 'limited' | 'off';

export interface RequestLine {
  method: string;
  url: string;
  status: number;
  ms: number;
  cache: CacheOutcome;
  /** Absent when the request never reached the limiter (a cached answer). */
  rateLimit?: RateLimitOutcome | undefined;
}

/** One structured line per request: what was asked, what was answered, and how long it took. */
export function logRequest(line: RequestLine): void {
  const { path, query } = pathAndQuery(line.url);
  console.log(
    JSON.stringify({
      msg: 'request',
      method: line.method,
      path,
      query,
      status: line.status,
      ms: Math.round(line.ms * 10) / 10,
      cache: line.cache,
      rateLimit: line.rateLimit,
    }),
  );
}
