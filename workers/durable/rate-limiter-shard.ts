/** FNV-1a (32 bits, unsigned) over the UTF-16 code units of `text`: stable across isolates and deploys. */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** Fixed: the buckets of one client must stay in one object whatever the traffic. */
export const RATE_LIMITER_SHARDS = 32;

/**
 * The name of the `RateLimiter` object holding bucket `key`: FNV-1a over its UTF-16 code units, modulo the shard
 * count. However many clients there are, there are at most `RATE_LIMITER_SHARDS` objects.
 */
export function rateLimiterShard(key: string): string {
  return `shard-${fnv1a32(key) % RATE_LIMITER_SHARDS}`;
}
