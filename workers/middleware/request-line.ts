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
  rateLimit: RateLimitOutcome;
}

/**
 * The path and the query (from its `?`; empty when there is none) of a request's absolute URL, by position: the
 * runtime has already parsed and normalised it, and parsing it again costs more than the rest of the log line.
 */
export function pathAndQuery(url: string): { path: string; query: string } {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  if (slash < 0) return { path: '/', query: '' };
  const question = url.indexOf('?', slash);
  if (question < 0) return { path: url.slice(slash), query: '' };
  return { path: url.slice(slash, question), query: question === url.length - 1 ? '' : url.slice(question) };
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
