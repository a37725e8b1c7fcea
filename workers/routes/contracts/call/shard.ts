import { fnv1a32 } from '../../../durable/rate-limiter-shard.ts';

/**
 * How calls are spread over EvmExecutor objects: a fixed number of shards, a client always on the same one (its
 * API key, else its address), so one client's calls meet one set of buckets and no single object runs everyone's.
 * docs/adr/0016-evm-executor.md says why 16.
 */
export const EXECUTOR_SHARDS = 16;

/** The client a call is counted for: its API key when it sends one, else its address as Cloudflare saw it. */
export function callClient(header: (name: string) => string | undefined): string {
  const apiKey = header('x-api-key');
  if (apiKey) return `key:${apiKey}`;
  return `ip:${header('cf-connecting-ip') ?? header('x-real-ip') ?? 'unknown'}`;
}

/** FNV-1a (32 bits) of the client, modulo the shard count: stable across isolates and deploys. */
export const executorShard = (client: string): number => fnv1a32(client) % EXECUTOR_SHARDS;

export const executorName = (shard: number): string => `evm-executor-${shard}`;
