/**
 * A flood as the attacker sent it: every request from one address with an API key nobody configured, each
 * to a URL no one asked before (so none is a cache hit and each would reach the database), and the count of the
 * rate limiter's Durable Objects the local runtime keeps on disk afterwards.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';

export interface FloodResult {
  readonly byStatus: ReadonlyMap<number, number>;
  /** Index of the first request answered 429, or -1. */
  readonly firstLimited: number;
}

export async function floodWithInventedKeys(options: {
  baseUrl: string;
  requests: number;
  address: string;
  concurrency?: number;
}): Promise<FloodResult> {
  const byStatus = new Map<number, number>();
  let firstLimited = -1;
  let at = 0;
  const client = async () => {
    while (at < options.requests) {
      const i = at++;
      let status = 0;
      try {
        const res = await fetch(`${options.baseUrl}/api/v1/transactions?timestamp=lt:${1_700_000_000 + i}`, {
          headers: { 'cf-connecting-ip': options.address, 'x-api-key': `invented-${i}-${Math.random()}` },
        });
        await res.arrayBuffer();
        status = res.status;
      } catch {}
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      if (status === 429 && (firstLimited < 0 || i < firstLimited)) firstLimited = i;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 16 }, client));
  return { byStatus, firstLimited };
}

/** Durable Objects of the `RateLimiter` class in a local state directory (one SQLite file each). */
export function countRateLimiterObjects(persistDir: string): number {
  const dir = path.join(persistDir, 'do', 'edge-mirror-RateLimiter');
  try {
    return readdirSync(dir).filter((name) => name.endsWith('.sqlite') && name !== 'metadata.sqlite').length;
  } catch {
    return 0;
  }
}
