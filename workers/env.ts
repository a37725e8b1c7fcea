import type { RateLimiter } from './durable/rate-limiter.ts';

/** Bindings and vars of the Worker (wrangler.toml `[vars]`, secrets, and what `npm start` passes). */
export interface Env {
  /** postgres://… of the mirror database. */
  DATABASE_URL: string;
  /** `host:port` of the local SQL-over-HTTP proxy; set only when the database is a plain local Postgres. */
  DB_LOCAL_PROXY?: string;
  /** What identifies the database's contents (`npm start` sets it): part of the edge cache key (cache-key.ts). */
  DATABASE_ID?: string;
  /** The shards of the per-client token buckets (wrangler.toml `durable_objects`); without it nothing is rate limited. */
  RATE_LIMITER?: DurableObjectNamespace<RateLimiter>;
  /** Settings in the reference's tree, as `HIERO_MIRROR_REST_*` variables (see workers/config/config.ts). */
  [setting: `HIERO_MIRROR_${string}`]: string | undefined;
}
