import type { Context, MiddlewareHandler } from 'hono';
import { httpDate } from '../../common/http-date.ts';
import type { Config } from '../config/config.ts';
import type { AppEnv } from '../context.ts';
import type { Env } from '../env.ts';
import { pathAndQuery } from '../request-url.ts';
import { canonicalQuery } from './cache-key.ts';
import { type Lifetime, lifetimeOf, maxAgeOf, servedCacheControl, storedCacheControl } from './cache-lifetime.ts';
import { MemoryCache, type RememberedResponse } from './memory-cache.ts';

const CACHE_ORIGIN = 'https://cache.edge-mirror.internal';

/** Runs the whole app on a request (the edge cache's own, when it reads a stale answer again). */
export type RunApp = (request: Request, env: Env, ctx: BackgroundWork) => Response | Promise<Response>;

/** The request's execution context, as hono hands it over: what may outlive the response. */
type BackgroundWork = Context<AppEnv>['executionCtx'];

/** RFC 9110 If-None-Match: `*`, or a list of entity tags compared weakly. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => bare(tag) === bare(etag));
}

/** 304 without a body when the client already has these bytes, else the response itself. */
function conditional(ifNoneMatch: string | undefined, response: Response): Response {
  // Most requests send no If-None-Match: they need not read the response's headers back.
  if (!ifNoneMatch || response.status !== 200) return response;
  const etag = response.headers.get('etag');
  if (!etag || !matches(ifNoneMatch, etag)) return response;
  const headers = new Headers();
  for (const name of ['etag', 'cache-control', 'link', 'access-control-allow-origin', 'age']) {
    const value = response.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return new Response(null, { status: 304, headers });
}

/**
 * How the edge cache keys a family of requests: which methods it answers, and each request's key after the prefix
 * (its path and what selects the answer); `undefined` for one it neither answers from nor stores in the cache.
 */
export interface CacheKeys {
  readonly methods: readonly string[];
  key(c: Context<AppEnv>): string | undefined | Promise<string | undefined>;
}

/** GETs, by their path and canonical query (`canonicalQuery`). */
const BY_URL: CacheKeys = {
  methods: ['GET', 'HEAD'],
  key: (c) => {
    const { path, query } = pathAndQuery(c.req.url);
    return `${path}${canonicalQuery(query)}`;
  },
};

/**
 * If-None-Match (against the ETag every 200 is built with) and the edge cache for GETs (or the requests `keys`
 * describes: the Rosetta API's POSTs, keyed by their body). Within its max-age a
 * repeated request is answered from the edge before any route code runs, so it costs no database query (the
 * reference's ETag still runs the query). Past it, within the stale-while-revalidate bound
 * (`edge.cache.staleWhileRevalidate`), a browser's request (`acceptsStale`) gets the stale copy with its `Age` while
 * the answer is read again in the background, once at a time per key; any other request reads it again. Final
 * answers (`immutable`, docs/adr/0045) are kept for their whole max-age. The key is the path and the canonical query
 * (`canonicalQuery`), under `keyPrefix(env)` (test mode changes it to drop everything cached). In front of the Cache API, each isolate keeps the responses it produced in memory
 * (`edge.cache.memoryBytes`) and answers from there first. Errors are never stored, nor 404s that are not final;
 * requests with credentials are neither served nor stored.
 */
export function edgeCache(
  keyPrefix: (env: Env) => string,
  runApp: RunApp,
  keys: CacheKeys = BY_URL,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!keys.methods.includes(c.req.method)) return next();
    const config = c.get('config').edge.cache;
    const ifNoneMatch = c.req.header('if-none-match');
    // The key and the tiers only when there is a cache to use: with it off, a request pays for none of them.
    let requestKey = config.enabled && c.req.header('authorization') === undefined ? keys.key(c) : undefined;
    if (requestKey instanceof Promise) requestKey = await requestKey;
    const store =
      requestKey !== undefined
        ? {
            cache: caches.default,
            memory: memoryCache(config.memoryBytes),
            key: `${CACHE_ORIGIN}/${keyPrefix(c.env)}${requestKey}`,
          }
        : undefined;
    const revalidating = revalidations.has(c.req.raw);
    if (store && !revalidating) {
      const { cache, memory, key } = store;
      const now = Date.now();
      const staleServed = acceptsStale(c.req.raw);
      const again = () => revalidate(key, c.req.raw, (request) => runApp(request, c.env, c.executionCtx));
      const remembered = memory?.get(key, now);
      if (remembered && (staleServed || remembered.freshUntil > now)) {
        const { response, stale } = rebuilt(remembered, now);
        c.set('cache', stale ? 'stale' : 'hit');
        if (stale) waitFor(c.executionCtx, again());
        return conditional(ifNoneMatch, response);
      }
      const hit = remembered ? undefined : await cache.match(key);
      if (hit) {
        const served = fromCacheApi(hit);
        const stale = served.freshUntil <= now;
        if (memory) await remember(memory, key, served);
        if (staleServed || !stale) {
          c.set('cache', stale ? 'stale' : 'hit');
          if (stale) waitFor(c.executionCtx, again());
          return conditional(ifNoneMatch, rebuilt(await asRemembered(served), now).response);
        }
      }
    }
    c.set('cache', revalidating ? 'revalidate' : store ? 'miss' : 'off');
    await next();
    const status = c.res.status;
    if (status !== 200 && status !== 404) return;
    let response = c.res;
    const cacheControl = response.headers.get('cache-control');
    const lifetime = store ? lifetimeOf(status, cacheControl, config.staleWhileRevalidate) : undefined;
    const producedAt = Date.now();
    if (status === 200 || lifetime) response.headers.set('date', httpDate(producedAt));
    // Every 200 arrives tagged from where it was built (workers/respond.ts): its body is read back only to store it.
    if (store && lifetime && cacheControl !== null) {
      const body = await response.arrayBuffer();
      response = new Response(body, { status, headers: response.headers });
      const { freshUntil, expiresAt } = deadlines(producedAt, lifetime);
      const kept = { body: new Uint8Array(body), headers: [...response.headers], status };
      store.memory?.put(store.key, kept, expiresAt, freshUntil);
      const copy = response.clone();
      copy.headers.set('cache-control', storedCacheControl(cacheControl, lifetime));
      c.executionCtx.waitUntil(store.cache.put(store.key, copy));
    }
    c.res = undefined;
    c.res = conditional(ifNoneMatch, response);
  };
}

/**
 * The memory tier's answer to a request, before any routing: what `edgeCache` would answer from memory, for the
 * requests it would answer that way (GET, no credentials). Cached answers are not rate limited (the limit guards
 * the database), so this holds whether the limit is on or off. A stale answer starts its revalidation through
 * `runApp`, in the background of this request.
 */
export function answerFromMemory(
  request: Request,
  config: Config,
  keyPrefix: string,
  runApp: (request: Request) => Response | Promise<Response>,
): { response: Response; stale: boolean; pending?: Promise<void> } | undefined {
  if (request.method !== 'GET' || !config.edge.cache.enabled) return undefined;
  if (request.headers.has('authorization') || revalidations.has(request)) return undefined;
  // The tier of earlier settings (test mode changes them) is not this request's.
  if (memory?.capacityBytes !== config.edge.cache.memoryBytes) return undefined;
  const key = cacheKeyUrl(keyPrefix, request.url);
  const now = Date.now();
  const remembered = memory.get(key, now);
  if (!remembered || (remembered.freshUntil <= now && !acceptsStale(request))) return undefined;
  const ifNoneMatch = request.headers.get('if-none-match') ?? undefined;
  const { response, stale } = rebuilt(remembered, now);
  const pending = stale ? revalidate(key, request, runApp) : undefined;
  return { response: conditional(ifNoneMatch, response), stale, ...(pending ? { pending } : {}) };
}

/** The cache key of a request URL: its path and canonical query, under the key prefix. */
function cacheKeyUrl(keyPrefix: string, requestUrl: string): string {
  const { path, query } = pathAndQuery(requestUrl);
  return `${CACHE_ORIGIN}/${keyPrefix}${path}${canonicalQuery(query)}`;
}

/** When an answer produced at `producedAt` (epoch ms) stops being fresh, and when the edge drops it. */
function deadlines(producedAt: number, lifetime: Lifetime): { freshUntil: number; expiresAt: number } {
  const freshUntil = producedAt + lifetime.maxAge * 1000;
  return { freshUntil, expiresAt: freshUntil + lifetime.staleSeconds * 1000 };
}

/**
 * Whether a stale answer may be served to this request: only to a browser's (it sends `Origin` with every
 * cross-origin read), which shows what it gets and reads again (an explorer's tables every 5 s). A client without
 * one (a relay reading a nonce or a balance, an SDK, an indexer) acts on the answer: it always gets a fresh one.
 */
const acceptsStale = (request: Request): boolean =>
  (request.method === 'GET' || request.method === 'HEAD') && request.headers.has('origin');

/** A kept response as a new Response; a stale one says how old it is (`Age`), so a browser keeps it no longer. */
function rebuilt(remembered: RememberedResponse, now: number): { response: Response; stale: boolean } {
  const stale = remembered.freshUntil <= now;
  const headers = stale
    ? [...remembered.headers.filter(([name]) => name !== 'age'), ['age', String(ageSeconds(remembered.headers, now))]]
    : remembered.headers;
  const status = remembered.status ?? 200;
  return { response: new Response(remembered.body, { status, headers: headers as [string, string][] }), stale };
}

function ageSeconds(headers: readonly [string, string][], now: number): number {
  const date = Date.parse(headers.find(([name]) => name === 'date')?.[1] ?? '');
  return Number.isNaN(date) ? 0 : Math.max(0, Math.floor((now - date) / 1000));
}

/** A Cache API copy with the route's own Cache-Control again, and its deadlines counted from its Date. */
interface FromCacheApi {
  readonly response: Response;
  readonly freshUntil: number;
  readonly expiresAt: number;
}

function fromCacheApi(hit: Response): FromCacheApi {
  const headers = new Headers(hit.headers);
  const stored = headers.get('cache-control') ?? '';
  const cacheControl = servedCacheControl(stored);
  headers.set('cache-control', cacheControl);
  const producedAt = Date.parse(headers.get('date') ?? '');
  const freshUntil = producedAt + maxAgeOf(cacheControl) * 1000;
  const sharedMaxAge = /s-maxage=(\d+)/.exec(stored)?.[1];
  const expiresAt = sharedMaxAge === undefined ? freshUntil : producedAt + Number(sharedMaxAge) * 1000;
  return { response: new Response(hit.body, { status: hit.status, headers }), freshUntil, expiresAt };
}

async function asRemembered(served: FromCacheApi): Promise<RememberedResponse> {
  const { response, freshUntil, expiresAt } = served;
  const body = new Uint8Array(await response.arrayBuffer());
  return { body, headers: [...response.headers], status: response.status, freshUntil, expiresAt };
}

/** Keeps a response from the Cache API in memory for what is left of its lifetime, counted from its Date. */
async function remember(memory: MemoryCache, key: string, served: FromCacheApi): Promise<void> {
  if (!(served.expiresAt > Date.now())) return;
  const copy = await asRemembered({ ...served, response: served.response.clone() });
  memory.put(key, copy, served.expiresAt, served.freshUntil);
}

/** Requests the edge cache makes itself to read a stale answer again: they skip the lookup and store what comes. */
const revalidations = new WeakSet<Request>();
/** Keys this isolate is reading again: a stale hit starts at most one revalidation per key at a time. */
const inFlight = new Set<string>();

/** Reads `key`'s answer again with `request`'s URL and headers (no validator: the answer must come whole). */
function revalidate(
  key: string,
  request: Request,
  runApp: (request: Request) => Response | Promise<Response>,
): Promise<void> | undefined {
  if (inFlight.has(key)) return undefined;
  inFlight.add(key);
  const headers = new Headers(request.headers);
  headers.delete('if-none-match');
  const again = new Request(request.url, { method: 'GET', headers });
  revalidations.add(again);
  return Promise.resolve()
    .then(() => runApp(again))
    .then((response) => response.body?.cancel())
    .catch(() => {})
    .finally(() => inFlight.delete(key));
}

function waitFor(ctx: BackgroundWork, pending: Promise<void> | undefined): void {
  if (pending) ctx.waitUntil(pending);
}

let memory: MemoryCache | undefined;

/** This isolate's memory tier, sized by the settings; none when they give it no bytes. */
function memoryCache(capacityBytes: number): MemoryCache | undefined {
  if (capacityBytes <= 0) return undefined;
  if (memory?.capacityBytes !== capacityBytes) memory = new MemoryCache(capacityBytes);
  return memory;
}
