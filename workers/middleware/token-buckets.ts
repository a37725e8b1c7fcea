/** The answer of a token bucket to one request. */
export interface TakeResult {
  allowed: boolean;
  /** Whole seconds until one token is back (0 when allowed). */
  retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  updatedMs: number;
}

/** How fast a bucket refills (`rate` tokens a second) and how many tokens it saves at most (`burst`). */
export interface BucketLimits {
  readonly rate: number;
  readonly burst: number;
}

/**
 * Many token buckets in memory, at most `capacity` of them: taking from a new bucket beyond that drops the least
 * recently used one. A dropped bucket starts full when it is next used, which errs on the client's side; with
 * buckets keyed by what a client cannot invent (its address, an operator's API key), only clients that stayed idle
 * longer than the busiest `capacity` others are dropped.
 */
export class TokenBuckets {
  readonly capacity: number;
  readonly #buckets = new Map<string, Bucket>();

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  get size(): number {
    return this.#buckets.size;
  }

  /** Takes one token from the bucket `key`, refilled up to `nowMs` first. */
  take(key: string, limits: BucketLimits, nowMs: number): TakeResult {
    const { rate, burst } = limits;
    const bucket = this.#buckets.get(key);
    let tokens = burst;
    if (bucket) {
      this.#buckets.delete(key);
      tokens = Math.min(burst, bucket.tokens + (Math.max(0, nowMs - bucket.updatedMs) / 1000) * rate);
    } else if (this.#buckets.size >= this.capacity) {
      // Map iteration order is insertion order and every use re-inserts: the first key is the least recently used.
      const oldest = this.#buckets.keys().next();
      if (!oldest.done) this.#buckets.delete(oldest.value);
    }
    const allowed = tokens >= 1;
    if (allowed) tokens -= 1;
    this.#buckets.set(key, { tokens, updatedMs: nowMs });
    if (allowed) return { allowed, retryAfterSeconds: 0 };
    return { allowed, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / rate)) };
  }

  /** Gives back a token taken from `key` for a request that another bucket then refused. */
  refund(key: string, limits: BucketLimits): void {
    const bucket = this.#buckets.get(key);
    if (bucket) bucket.tokens = Math.min(limits.burst, bucket.tokens + 1);
  }
}
