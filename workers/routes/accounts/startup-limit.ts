import type { Context } from 'hono';
import { configFromEnv } from '../../config/env-settings.ts';
import type { AppEnv } from '../../context.ts';

const cache = new WeakMap<object, number>();

/**
 * `response.limit.default` as the deployment's own settings give it (its environment), before any override the
 * test entry applies per case. Several of the reference's routes (the account's NFTs, rewards, tokens, allowances
 * and embedded transactions) read the default page size once when the process starts, so changing the setting at
 * runtime does not move it there; their maximum, by contrast, follows the current settings. In a deployment both
 * are the same value.
 */
export function startupDefaultLimit(c: Context<AppEnv>): number {
  let limit = cache.get(c.env);
  if (limit === undefined) {
    limit = configFromEnv(c.env).response.limit.default;
    cache.set(c.env, limit);
  }
  return limit;
}
