import { createApp } from './app.ts';
import { type Config, configFromEnv } from './config/config.ts';
import type { Env } from './env.ts';
import { cacheKeyPrefix } from './middleware/cache-key.ts';

let config: Config | undefined;

/** The deployed Worker: settings read once per isolate from its vars, the real clock. */
const app = createApp({
  config: (env) => {
    config ??= configFromEnv(env);
    return config;
  },
  now: () => BigInt(Date.now()) * 1_000_000n,
  cacheKeyPrefix,
});

export { RateLimiter } from './durable/rate-limiter.ts';

export default {
  fetch: (request, env, ctx) => app.fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;
