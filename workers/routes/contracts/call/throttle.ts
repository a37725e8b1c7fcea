import type { ThrottleSettings } from '../../../config/web3.ts';

/** Gas is counted in units of 10,000 (the reference's bucket cannot refill faster than one token a nanosecond). */
const GAS_SCALE = 10_000n;

/** Tokens of `gas`: none for 10,000 gas or less. */
export const scaleGas = (gas: bigint): number => (gas <= GAS_SCALE ? 0 : Number(gas / GAS_SCALE));

/** A bucket of `capacity` tokens that refills continuously at `capacity` a second (bucket4j's greedy refill). */
export class TokenBucket {
  private readonly capacity: number;
  private tokens: number;
  private updatedMs: number;
  constructor(capacity: number, nowMs: number) {
    this.capacity = capacity;
    this.tokens = capacity;
    this.updatedMs = nowMs;
  }

  private refill(nowMs: number): void {
    this.tokens = Math.min(this.capacity, this.tokens + ((nowMs - this.updatedMs) / 1000) * this.capacity);
    this.updatedMs = nowMs;
  }

  tryConsume(count: number, nowMs: number): boolean {
    this.refill(nowMs);
    if (this.tokens < count) return false;
    this.tokens -= count;
    return true;
  }

  add(count: number, nowMs: number): void {
    this.refill(nowMs);
    this.tokens = Math.min(this.capacity, this.tokens + count);
  }

  /** Whole seconds until `count` tokens are there (at least 1). */
  secondsUntil(count: number): number {
    return Math.max(1, Math.ceil((Math.min(count, this.capacity) - this.tokens) / this.capacity));
  }
}

export type Admission = { admitted: true } | { admitted: false; detail: string; retryAfterSeconds: number };

export const REQUESTS_EXCEEDED = 'Requests per second rate limit exceeded';
export const GAS_EXCEEDED = 'Gas per second rate limit exceeded.';

/**
 * The reference's two throttles of POST /api/v1/contracts/call: one request token, then the request's gas limit in
 * gas tokens, both taken before the call runs; what the call did not use is given back after it (`refund`).
 */
export class CallThrottle {
  private readonly requests: TokenBucket;
  private readonly gas: TokenBucket;
  private readonly refundPercent: number;

  constructor(settings: ThrottleSettings, nowMs: number) {
    this.requests = new TokenBucket(settings.requestsPerSecond, nowMs);
    this.gas = new TokenBucket(scaleGas(settings.gasPerSecond), nowMs);
    this.refundPercent = settings.gasLimitRefundPercent;
  }

  admit(gasLimit: bigint, nowMs: number): Admission {
    if (!this.requests.tryConsume(1, nowMs)) {
      return { admitted: false, detail: REQUESTS_EXCEEDED, retryAfterSeconds: this.requests.secondsUntil(1) };
    }
    const tokens = scaleGas(gasLimit);
    if (!this.gas.tryConsume(tokens, nowMs)) {
      return { admitted: false, detail: GAS_EXCEEDED, retryAfterSeconds: this.gas.secondsUntil(tokens) };
    }
    return { admitted: true };
  }

  /** All of the request's gas back: it was refused before anything ran. */
  restore(gasLimit: bigint, nowMs: number): void {
    this.gas.add(scaleGas(gasLimit), nowMs);
  }

  /**
   * After a run: the unused gas, at most `gasLimitRefundPercent` of the limit; a run that used all its gas or gave no
   * result (an error) gets that share of the limit back.
   */
  refund(gasLimit: bigint, gasUsed: bigint | undefined, nowMs: number): void {
    const share = (gasLimit * BigInt(Math.round(this.refundPercent * 100))) / 10_000n;
    const unused = gasUsed === undefined || gasUsed >= gasLimit ? share : gasLimit - gasUsed;
    this.gas.add(scaleGas(unused < share ? unused : share), nowMs);
  }
}
