import type { Context } from 'hono';
import { strongEtag } from './etag.ts';
import { stringifyJson } from './json.ts';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
export const DEFAULT_CACHE_CONTROL = 'public, max-age=1';
/** Any origin may read the API, as with the reference: every response the Worker builds says so. */
const ALLOW_ANY_ORIGIN = '*';

const encoder = new TextEncoder();

/**
 * A JSON response as the reference sends it: its content type, the route's Cache-Control (`cacheControl`, else
 * `public, max-age=<maxAge>`: workers/finality/freshness.ts builds it for routes with final answers), and `Link: <next>; rel="next"` when the body has `links.next`.
 * Bigint values are written as JSON numbers. A 200 carries its ETag: tagged here, where the bytes exist, the edge
 * cache middleware need not read the body back and build the response again. Built directly, not with hono's
 * `c.body`, which would set each header on a Headers object of its own and then copy it (docs/adr/0012); so headers
 * set with `c.header` do not reach it, and what it needs comes in `options`.
 */
export function jsonResponse(
  body: unknown,
  options: { maxAge?: number; cacheControl?: string; status?: number } = {},
): Response {
  const status = options.status ?? 200;
  const bytes = encoder.encode(stringifyJson(body));
  const headers: Record<string, string> = {
    'access-control-allow-origin': ALLOW_ANY_ORIGIN,
    'content-type': JSON_CONTENT_TYPE,
    'cache-control':
      options.cacheControl ??
      (options.maxAge === undefined ? DEFAULT_CACHE_CONTROL : `public, max-age=${options.maxAge}`),
  };
  const next = (body as { links?: { next?: unknown } } | null)?.links?.next;
  if (typeof next === 'string') headers.link = `<${next}>; rel="next"`;
  if (status === 200) headers.etag = strongEtag(bytes);
  return new Response(bytes, { status, headers });
}

/**
 * A plain text answer (the supply's `q` values), tagged as `jsonResponse` tags. Through hono's `c.body`, as are
 * errors: both take up headers the route set on the context before it knew its answer (the network routes'
 * Cache-Control).
 */
export function textResponse(c: Context, text: string): Response {
  const bytes = encoder.encode(text);
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
    'access-control-allow-origin': ALLOW_ANY_ORIGIN,
    'content-type': 'text/plain; charset=utf-8',
    etag: strongEtag(bytes),
  });
}

/** An error answer: the reference's error body, with any headers the error carries (`Retry-After`). */
export function errorResponse(
  c: Context,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return c.body(stringifyJson(body), status as 400, {
    ...headers,
    'access-control-allow-origin': ALLOW_ANY_ORIGIN,
    'content-type': JSON_CONTENT_TYPE,
  });
}
