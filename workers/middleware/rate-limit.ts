import type { Context } from 'hono';
import { z } from 'zod';
import type { Config } from '../config/config.ts';
import type { AppEnv } from '../context.ts';
import { nearDatabase } from '../durable/location-hint.ts';
import { rateLimiterShard } from '../durable/rate-limiter-shard.ts';
import { ApiError } from '../errors.ts';
import { failureLines } from '../failure-line.ts';
import { type BucketLimits, type TakeResult, TokenBuckets } from './token-buckets.ts';

type RateLimits = Config['edge']['rateLimit'];
type RouteClass = 'reads' | 'contractsCall' | 'opcodes';

function routeClass(method: string, path: string): RouteClass {
  if (method === 'POST' && path === '/api/v1/contracts/call') return 'contractsCall';
  if (/^\/api\/v1\/contracts\/results\/[^/]+\/opcodes$/.test(path)) return 'opcodes';
  return 'reads';
}

/**
 * Whether the route takes the request's token itself, calling `limitRate` once it has checked what costs nothing: a
 * trace request is refused for what it is (tracer off, a bad id, no `Accept-Encoding: gzip`, bad options) without
 * spending the client's one trace a second, as the reference validates before it throttles.
 */
export const routeTakesToken = (c: Context<AppEnv>): boolean => routeClass(c.req.method, c.req.path) === 'opcodes';

const apiKeysSchema = z.array(
  z.object({ key: z.string().min(1), name: z.string().min(1), rate: z.number().positive(), burst: z.number().min(1) }),
);

type ApiKeys = ReadonlyMap<string, { name: string; limits: BucketLimits }>;
const apiKeysBySettings = new WeakMap<RateLimits, ApiKeys>();

/** The configured keys by their value, read once per settings object; a malformed list is reported and unused. */
function apiKeys(settings: RateLimits): ApiKeys {
  let keys = apiKeysBySettings.get(settings);
  if (keys) return keys;
  const parsed = apiKeysSchema.safeParse(settings.apiKeys);
  if (!parsed.success) {
    console.log(JSON.stringify({ msg: 'rate limit api keys ignored', level: 'error', error: parsed.error.message }));
  }
  keys = new Map((parsed.data ?? []).map(({ key, name, rate, burst }) => [key, { name, limits: { rate, burst } }]));
  apiKeysBySettings.set(settings, keys);
  return keys;
}

/**
 * The bucket a request is counted in and its limits. The client is an API key the operator configured, else its
 * address as Cloudflare's edge wrote it (`CF-Connecting-IP`, which a client cannot set through Cloudflare). A key
 * nobody configured is ignored, so inventing keys gives a client no new buckets.
 */
function bucketFor(c: Context<AppEnv>, settings: RateLimits): { key: string; limits: BucketLimits } {
  const kind = routeClass(c.req.method, c.req.path);
  const apiKey = c.req.header('x-api-key');
  const known = apiKey ? apiKeys(settings).get(apiKey) : undefined;
  if (known) return { key: `${kind}:key:${known.name}`, limits: kind === 'reads' ? known.limits : settings[kind] };
  return { key: `${kind}:ip:${c.req.header('cf-connecting-ip') ?? 'unknown'}`, limits: settings[kind] };
}

/**
 * This isolate's view of the buckets. It sees a subset of a client's requests and refills as fast as the shared
 * bucket, so it is never emptier than the shared one (a token it took for a request the shared bucket refused is
 * given back): refusing here first sheds a flood without a call to the Durable Object and never refuses a client
 * the shared bucket would let in.
 */
const isolateBuckets = new TokenBuckets(10_000);

/**
 * Limits a request that is about to reach the database (the edge cache runs this only on a miss; a cached answer
 * waits on nothing remote). Over the limit: 429 with `Retry-After` and the reference's throttle message. Switched
 * off, or without the binding, nothing is limited and nothing awaited. When the Durable Object cannot be reached
 * the request goes on with only this isolate's bucket: a limiter outage must not become an API outage.
 */
export async function limitRate(c: Context<AppEnv>): Promise<void> {
  const settings = c.get('config').edge.rateLimit;
  const namespace = c.env.RATE_LIMITER;
  if (!settings.enabled || !namespace) {
    c.set('rateLimit', 'off');
    return;
  }
  const { key, limits } = bucketFor(c, settings);
  let result: TakeResult = isolateBuckets.take(key, limits, Date.now());
  if (result.allowed) {
    try {
      const shard = namespace.get(
        namespace.idFromName(rateLimiterShard(key)),
        nearDatabase(c.env.DATABASE_LOCATION_HINT),
      );
      result = await shard.take(key, limits);
    } catch (error) {
      const message = (error as Error).message;
      failureLines.write(`rate limiter ${message}`, { msg: 'rate limiter unreachable', level: 'warn', error: message });
    }
    if (!result.allowed) isolateBuckets.refund(key, limits);
  }
  c.set('rateLimit', result.allowed ? 'allowed' : 'limited');
  if (!result.allowed) {
    throw new ApiError(429, 'Requests per second rate limit exceeded.', {
      headers: { 'retry-after': String(result.retryAfterSeconds) },
    });
  }
}
