import type { MiddlewareHandler } from 'hono';
import type { Config } from '../config/config.ts';
import type { AppEnv } from '../context.ts';
import type { Env } from '../env.ts';
import { httpDate } from '../http-date.ts';
import { ifNoneMatchHits } from '../if-none-match.ts';
import { pathAndQuery } from '../request-url.ts';
import { canonicalQuery } from './cache-key.ts';
import { MemoryCache } from './memory-cache.ts';

const CACHE_ORIGIN = 'https://cache.edge-mirror.internal';

function maxAgeOf(cacheControl: string | null): number {
  const match = cacheControl ? /max-age=(\d+)/.exec(cacheControl) : null;
  return match?.[1] ? Number(match[1]) : 0;
}

/** 304 without a body when the client already has these bytes, else the response itself. */
function conditional(ifNoneMatch: string | undefined, response: Response): Response {
  // Most requests send no If-None-Match: they need not read the response's headers back.
  if (!ifNoneMatch) return response;
  const etag = response.headers.get('etag');
  if (!etag || !ifNoneMatchHits(ifNoneMatch, etag)) return response;
  const headers = new Headers();
  for (const name of ['etag', 'cache-control', 'link', 'access-control-allow-origin']) {
    const value = response.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return new Response(null, { status: 304, headers });
}

/**
 * If-None-Match (against the ETag every 200 is built with) and the Workers Cache API for successful GETs. Within its max-age a repeated request is
 * answered from the edge cache before any route code runs, so it costs no database query (the reference's ETag
 * still runs the query). The key is the path and the canonical query (`canonicalQuery`), under `keyPrefix(env)`
 * (test mode changes it to drop everything cached). In front of the Cache API, each isolate keeps the responses it
 * produced in memory (`edge.cache.memoryBytes`) and answers from there first. Errors are never stored; requests with credentials are neither served nor stored.
 */
export function edgeCache(keyPrefix: (env: Env) => string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const config = c.get('config').edge.cache;
    const ifNoneMatch = c.req.header('if-none-match');
    // The key and the tiers only when there is a cache to use: with it off, a request pays for none of them.
    const store =
      config.enabled && c.req.header('authorization') === undefined
        ? {
            cache: caches.default,
            memory: memoryCache(config.memoryBytes),
            key: cacheKeyUrl(keyPrefix(c.env), c.req.url),
          }
        : undefined;
    if (store) {
      const { cache, memory, key } = store;
      const remembered = memory?.get(key, Date.now());
      if (remembered) {
        c.set('cache', 'hit');
        return conditional(ifNoneMatch, new Response(remembered.body, { headers: remembered.headers }));
      }
      const hit = await cache.match(key);
      if (hit) {
        c.set('cache', 'hit');
        if (memory) await remember(memory, key, hit.clone());
        return conditional(ifNoneMatch, hit);
      }
    }
    c.set('cache', store ? 'miss' : 'off');
    await next();
    if (c.res.status !== 200) return;
    // Every 200 arrives tagged from where it was built (workers/respond.ts): its body is read back only to store it.
    let response = c.res;
    response.headers.set('date', httpDate(Date.now()));
    const maxAge = store ? maxAgeOf(response.headers.get('cache-control')) : 0;
    if (store && maxAge > 0) {
      const body = await response.arrayBuffer();
      response = new Response(body, { status: 200, headers: response.headers });
      const expiresAt = Date.now() + maxAge * 1000;
      store.memory?.put(store.key, { body: new Uint8Array(body), headers: [...response.headers] }, expiresAt);
      c.executionCtx.waitUntil(store.cache.put(store.key, response.clone()));
    }
    c.res = undefined;
    c.res = conditional(ifNoneMatch, response);
  };
}

/**
 * The memory tier's answer to a request, before any routing: what `edgeCache` would answer from memory, for the
 * requests it would answer that way (GET, no credentials). Cached answers are not rate limited (the limit guards
 * the database), so this holds whether the limit is on or off.
 */
export function answerFromMemory(request: Request, config: Config, keyPrefix: string): Response | undefined {
  if (request.method !== 'GET' || !config.edge.cache.enabled) return undefined;
  if (request.headers.has('authorization')) return undefined;
  // The tier of earlier settings (test mode changes them) is not this request's.
  if (memory?.capacityBytes !== config.edge.cache.memoryBytes) return undefined;
  const remembered = memory.get(cacheKeyUrl(keyPrefix, request.url), Date.now());
  if (!remembered) return undefined;
  const ifNoneMatch = request.headers.get('if-none-match') ?? undefined;
  return conditional(ifNoneMatch, new Response(remembered.body, { headers: remembered.headers }));
}

/** The cache key of a request URL: its path and canonical query, under the key prefix. */
function cacheKeyUrl(keyPrefix: string, requestUrl: string): string {
  const { path, query } = pathAndQuery(requestUrl);
  return `${CACHE_ORIGIN}/${keyPrefix}${path}${canonicalQuery(query)}`;
}

/** Keeps a response from the Cache API in memory for what is left of its max-age, counted from its Date. */
async function remember(memory: MemoryCache, key: string, response: Response): Promise<void> {
  const producedAt = Date.parse(response.headers.get('date') ?? '');
  const expiresAt = producedAt + maxAgeOf(response.headers.get('cache-control')) * 1000;
  if (!(expiresAt > Date.now())) return;
  memory.put(key, { body: new Uint8Array(await response.arrayBuffer()), headers: [...response.headers] }, expiresAt);
}

let memory: MemoryCache | undefined;

/** This isolate's memory tier, sized by the settings; none when they give it no bytes. */
function memoryCache(capacityBytes: number): MemoryCache | undefined {
  if (capacityBytes <= 0) return undefined;
  if (memory?.capacityBytes !== capacityBytes) memory = new MemoryCache(capacityBytes);
  return memory;
}
