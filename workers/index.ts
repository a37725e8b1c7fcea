import { createApp } from './app.ts';
import type { Config } from './config/config.ts';
import { readEnvSettings, reportEnvSettings } from './config/env-settings.ts';
import type { Env } from './env.ts';
import { cacheKeyPrefix } from './middleware/cache-key.ts';

let config: Config | undefined;
let keyPrefix: string | undefined;

/**
 * The deployed Worker: settings read once per isolate from its vars (ignored variables reported), the real clock,
 * the cache key prefix made once per isolate (its vars do not change; test mode's entry changes it between cases).
 */
const app = createApp({
  config: (env) => {
    if (!config) {
      const settings = readEnvSettings(env);
      reportEnvSettings(settings);
      config = settings.config;
    }
    return config;
  },
  now: () => BigInt(Date.now()) * 1_000_000n,
  cacheKeyPrefix: (env) => (keyPrefix ??= cacheKeyPrefix(env)),
});

export { EvmExecutor } from './durable/evm-executor.ts';
export { RateLimiter } from './durable/rate-limiter.ts';
export { StreamHub } from './durable/stream-hub.ts';
export { StreamTail } from './durable/stream-tail.ts';

export default {
  fetch: (request, env, ctx) => app.fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;
