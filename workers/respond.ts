import type { Context } from 'hono';
import { strongEtag } from './etag.ts';
import { stringifyJson } from './json.ts';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
export const DEFAULT_CACHE_CONTROL = 'public, max-age=1';

const encoder = new TextEncoder();

/**
 * A JSON response as the reference sends it: its content type, the route's Cache-Control
 * (`public, max-age=<seconds>`), and `Link: <next>; rel="next"` when the body has `links.next`.
 * Bigint values are written as JSON numbers. A 200 carries its ETag: tagged here, where the bytes exist, the edge
 * cache middleware need not read the body back and build the response again.
 */
export function jsonResponse(c: Context, body: unknown, options: { maxAge?: number; status?: number } = {}): Response {
  const status = options.status ?? 200;
  const bytes = encoder.encode(stringifyJson(body));
  const headers: Record<string, string> = {
    'content-type': JSON_CONTENT_TYPE,
    'cache-control': options.maxAge === undefined ? DEFAULT_CACHE_CONTROL : `public, max-age=${options.maxAge}`,
  };
  const next = (body as { links?: { next?: unknown } } | null)?.links?.next;
  if (typeof next === 'string') headers.link = `<${next}>; rel="next"`;
  if (status === 200) headers.etag = strongEtag(bytes);
  return c.body(bytes as Uint8Array<ArrayBuffer>, status as 200, headers);
}
