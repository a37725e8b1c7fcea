import { describe, expect, it } from 'vitest';
import { RATE_LIMITER_SHARDS, rateLimiterShard } from './rate-limiter-shard.ts';

describe('rateLimiterShard', () => {
  it('names at most the fixed number of objects for any number of keys, spread over all of them', () => {
    const names = new Set<string>();
    for (let i = 0; i < 20_000; i++) names.add(rateLimiterShard(`reads:ip:198.51.${i >> 8}.${i & 255}`));
    expect(names.size).toBe(RATE_LIMITER_SHARDS);
  });

  it('always names the same object for the same key', () => {
    expect(rateLimiterShard('reads:key:partner')).toBe(rateLimiterShard('reads:key:partner'));
  });
});
