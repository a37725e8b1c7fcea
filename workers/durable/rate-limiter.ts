import { DurableObject } from 'cloudflare:workers';

export interface TakeResult {
  allowed: boolean;
  /** Seconds until one token is back (0 when allowed). */
  retryAfterSeconds: number;
}

/**
 * One token bucket: one object per client and route class (`idFromName("reads:203.0.113.7")`), so load spreads
 * over as many objects as there are clients and no object is global. The bucket lives in memory: an evicted
 * object starts full again, which errs on the client's side.
 */
export class RateLimiter extends DurableObject {
  private tokens = Number.NaN;
  private updatedMs = 0;

  /** Takes one token from a bucket that refills `rate` tokens a second up to `burst`. */
  take(rate: number, burst: number): TakeResult {
    const now = Date.now();
    this.tokens = Number.isNaN(this.tokens)
      ? burst
      : Math.min(burst, this.tokens + ((now - this.updatedMs) / 1000) * rate);
    this.updatedMs = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { allowed: true, retryAfterSeconds: 0 };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - this.tokens) / rate)) };
  }
}
