import type { Context } from 'hono';
import { stringifyJson } from './json.ts';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
export const DEFAULT_CACHE_CONTROL = 'public, max-age=1';

/**
 * A JSON response as the reference sends it: its content type, the route's Cache-Control
 * (`public, max-age=<seconds>`), and `Link: <next>; rel="next"` when the body has `links.next`.
 * Bigint values are written as JSON numbers.
 */
export function jsonResponse(c: Context, body: unknown, options: { maxAge?: number; status?: number } = {}): Response {
  const headers: Record<string, string> = {
    'content-type': JSON_CONTENT_TYPE,
    'cache-control': options.maxAge === undefined ? DEFAULT_CACHE_CONTROL : `public, max-age=${options.maxAge}`,
  };
  const next = (body as { links?: { next?: unknown } } | null)?.links?.next;
  if (typeof next === 'string') headers.link = `<${next}>; rel="next"`;
  return c.body(stringifyJson(body), (options.status ?? 200) as 200, headers);
}
