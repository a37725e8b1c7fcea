import { describe, expect, it } from 'vitest';
import { TokenBuckets } from './token-buckets.ts';

const limits = { rate: 2, burst: 3 };

describe('TokenBuckets', () => {
  it('allows a burst, refuses the next request with the seconds until a token is back, and refills at the rate', () => {
    const buckets = new TokenBuckets(10);
    for (let i = 0; i < 3; i++) expect(buckets.take('a', limits, 0).allowed).toBe(true);
    expect(buckets.take('a', limits, 0)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(buckets.take('a', limits, 499).allowed).toBe(false);
    expect(buckets.take('a', limits, 500).allowed).toBe(true);
    expect(buckets.take('a', { rate: 0.1, burst: 1 }, 500)).toEqual({ allowed: false, retryAfterSeconds: 10 });
  });

  it('keeps one bucket per key', () => {
    const buckets = new TokenBuckets(10);
    for (let i = 0; i < 3; i++) buckets.take('a', limits, 0);
    expect(buckets.take('a', limits, 0).allowed).toBe(false);
    expect(buckets.take('b', limits, 0).allowed).toBe(true);
  });

  it('holds at most its capacity of buckets, dropping the least recently used', () => {
    const buckets = new TokenBuckets(2);
    for (let i = 0; i < 3; i++) buckets.take('a', limits, 0);
    buckets.take('b', limits, 0);
    buckets.take('a', limits, 0);
    buckets.take('c', limits, 0);
    expect(buckets.size).toBe(2);
    // 'b' was dropped, 'a' (used more recently) kept its empty bucket.
    expect(buckets.take('a', limits, 0).allowed).toBe(false);
    for (let i = 0; i < 1000; i++) buckets.take(`invented-${i}`, limits, 0);
    expect(buckets.size).toBe(2);
  });

  it('gives a refunded token back, never above the burst', () => {
    const buckets = new TokenBuckets(10);
    for (let i = 0; i < 3; i++) buckets.take('a', limits, 0);
    buckets.refund('a', limits);
    expect(buckets.take('a', limits, 0).allowed).toBe(true);
    for (let i = 0; i < 5; i++) buckets.refund('a', limits);
    for (let i = 0; i < 3; i++) expect(buckets.take('a', limits, 0).allowed).toBe(true);
    expect(buckets.take('a', limits, 0).allowed).toBe(false);
  });
});
