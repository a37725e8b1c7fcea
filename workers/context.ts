import type { Database } from '../db/client.ts';
import type { Config } from './config/config.ts';
import type { Env } from './env.ts';

/** What every handler finds on the Hono context. */
export interface AppVariables {
  config: Config;
  db: Database;
  /** The page-size cap of this request: `response.limit.max`, or an authenticated user's own limit. */
  maxLimit: number;
  /** How the edge cache treated this request (for the request log). */
  cache: 'hit' | 'miss' | 'off';
  /** The rate limiter's decision (for the request log). */
  rateLimit: 'allowed' | 'limited' | 'off';
  /** The clock, in nanoseconds since the epoch (test mode can set it). */
  now: () => bigint;
}

export type AppEnv = { Bindings: Env; Variables: AppVariables };
