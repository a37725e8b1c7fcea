import type { Context } from 'hono';
import { stringifyJson } from './json.ts';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
export const DEFAULT_CACHE_CONTROL = 'public, max-age=1';

/**
 * A JSON response as the reference sends it: its content type and the route's Cache-Control
 * (`public, max-age=<seconds>`). Bigint values are written as JSON numbers.
 */
export function jsonResponse(c: Context, body: unknown, options: { maxAge?: number; status?: number } = {}): Response {
  const cacheControl = options.maxAge === undefined ? DEFAULT_CACHE_CONTROL : `public, max-age=${options.maxAge}`;
  return c.body(stringifyJson(body), (options.status ?? 200) as 200, {
    'content-type': JSON_CONTENT_TYPE,
    'cache-control': cacheControl,
  });
}
