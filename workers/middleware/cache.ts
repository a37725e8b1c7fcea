import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.ts';
import { canonicalQuery } from './cache-key.ts';

const CACHE_ORIGIN = 'https://cache.edge-mirror.internal';

/** A strong validator of the exact bytes: the first 16 bytes of their SHA-256, base64url. */
async function strongEtag(body: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', body)).subarray(0, 16);
  return `"${btoa(String.fromCharCode(...digest))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')}"`;
}

/** RFC 9110 If-None-Match: `*`, or a list of entity tags compared weakly. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => bare(tag) === bare(etag));
}

function maxAgeOf(cacheControl: string | null): number {
  const match = cacheControl ? /max-age=(\d+)/.exec(cacheControl) : null;
  return match?.[1] ? Number(match[1]) : 0;
}

/** 304 without a body when the client already has these bytes, else the response itself. */
function conditional(c: Context, response: Response): Response {
  const etag = response.headers.get('etag');
  if (!etag || !matches(c.req.header('if-none-match'), etag)) return response;
  const headers = new Headers();
  for (const name of ['etag', 'cache-control', 'link']) {
    const value = response.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return new Response(null, { status: 304, headers });
}

/**
 * ETag, If-None-Match and the Workers Cache API for successful GETs. Within its max-age a repeated request is
 * answered from the edge cache before any route code runs, so it costs no database query (the reference's ETag
 * still runs the query). The key is the path and the canonical query (`canonicalQuery`), under `keyPrefix()`
 * (test mode changes it to drop everything cached). Errors are never stored; requests with credentials are neither served nor stored.
 */
export function edgeCache(keyPrefix: () => string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const useCache = c.var.config.edge.cache.enabled && c.req.header('authorization') === undefined;
    const url = new URL(c.req.url);
    const key = new Request(`${CACHE_ORIGIN}/${keyPrefix()}${url.pathname}${canonicalQuery(url.search)}`);
    const cache = useCache ? caches.default : undefined;
    if (cache) {
      const hit = await cache.match(key);
      if (hit) {
        c.set('cache', 'hit');
        return conditional(c, hit);
      }
    }
    c.set('cache', cache ? 'miss' : 'off');
    await next();
    if (c.res.status !== 200) return;
    const body = await c.res.arrayBuffer();
    const headers = new Headers(c.res.headers);
    headers.set('etag', await strongEtag(body));
    const response = new Response(body, { status: 200, headers });
    if (cache && maxAgeOf(headers.get('cache-control')) > 0) c.executionCtx.waitUntil(cache.put(key, response.clone()));
    c.res = undefined;
    c.res = conditional(c, response);
  };
}
