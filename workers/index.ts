import { createApp } from './app.ts';
import { type Config, configFromEnv } from './config/config.ts';
import type { Env } from './env.ts';

let config: Config | undefined;

/** The deployed Worker: settings read once per isolate from its vars, the real clock. */
const app = createApp({
  config: (env) => {
    config ??= configFromEnv(env);
    return config;
  },
  now: () => BigInt(Date.now()) * 1_000_000n,
  cacheKeyPrefix: () => 'v1',
});

export { EvmExecutor } from './durable/evm-executor.ts';
export { RateLimiter } from './durable/rate-limiter.ts';

export default {
  fetch: (request, env, ctx) => app.fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;
