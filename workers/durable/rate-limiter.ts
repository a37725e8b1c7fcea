import { DurableObject } from 'cloudflare:workers';
import { type BucketLimits, type TakeResult, TokenBuckets } from '../middleware/token-buckets.ts';

/** Buckets one object keeps; beyond it the least recently used is dropped (and starts full again). */
const BUCKETS_PER_OBJECT = 50_000;

/**
 * One shard of the clients' token buckets: `RATE_LIMITER_SHARDS` objects in all, each holding the buckets whose key
 * hashes to it (`rateLimiterShard`), in memory. The number of objects never grows with the number of clients,
 * and one object's memory is bounded by `BUCKETS_PER_OBJECT`. An evicted or restarted object starts its buckets full,
 * which errs on the clients' side.
 */
export class RateLimiter extends DurableObject {
  readonly #buckets = new TokenBuckets(BUCKETS_PER_OBJECT);

  /** Takes one token from the bucket `key`. */
  take(key: string, limits: BucketLimits): TakeResult {
    return this.#buckets.take(key, limits, Date.now());
  }
}
