/** Fixed: the buckets of one client must stay in one object whatever the traffic. */
export const RATE_LIMITER_SHARDS = 32;

/**
 * The name of the `RateLimiter` object holding bucket `key`: FNV-1a over its UTF-16 code units, modulo the shard
 * count. However many clients there are, there are at most `RATE_LIMITER_SHARDS` objects.
 */
export function rateLimiterShard(key: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return `shard-${(hash >>> 0) % RATE_LIMITER_SHARDS}`;
}
