import { pathAndQuery } from '../request-url.ts';

/**
 * How the edge cache treated a request: answered fresh (`hit`) or stale while it is read again (`stale`), sent on
 * (`miss`, or `off` with no cache to use), or the edge's own reading again of a stale answer (`revalidate`).
 */
export type CacheOutcome = 'hit' | 'stale' | 'miss' | 'off' | 'revalidate';

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

/**
 * Characters of a path or a query a log line keeps. URLs may be as long as the runtime accepts (100 KB of repeated
 * parameters is a valid request); past this, the start says what was asked and the length how much there was.
 */
export const LOGGED_URL_PART_CHARS = 1024;

const cut = (text: string): string =>
  text.length <= LOGGED_URL_PART_CHARS ? text : `${text.slice(0, LOGGED_URL_PART_CHARS)}…(${text.length} chars)`;

/** One structured line per request: what was asked, what was answered, and how long it took. */
export function logRequest(line: RequestLine): void {
  const { path, query } = pathAndQuery(line.url);
  console.log(
    JSON.stringify({
      msg: 'request',
      method: line.method,
      path: cut(path),
      query: cut(query),
      status: line.status,
      ms: Math.round(line.ms * 10) / 10,
      cache: line.cache,
      rateLimit: line.rateLimit,
    }),
  );
}
