import type { Database } from '../db/client.ts';
import type { Config } from './config/config.ts';
import type { Env } from './env.ts';
import type { CacheOutcome, RateLimitOutcome } from './middleware/request-line.ts';

/**
 * What every handler finds on the Hono context. Read it with `c.get(name)`: Hono's `c.var` copies all of them into a
 * new object on every access.
 */
export interface AppVariables {
  config: Config;
  db: Database;
  /** The page-size cap of this request: `response.limit.max`, or an authenticated user's own limit. */
  maxLimit: number;
  /** How the edge cache treated this request (for the request log). */
  cache: CacheOutcome;
  /** The rate limiter's decision (for the request log); unset when the request never reached it. */
  rateLimit: RateLimitOutcome;
  /** The clock, in nanoseconds since the epoch (test mode can set it). */
  now: () => bigint;
}

export type AppEnv = { Bindings: Env; Variables: AppVariables };
