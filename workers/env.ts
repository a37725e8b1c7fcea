import type { EvmExecutor } from './durable/evm-executor.ts';
import type { RateLimiter } from './durable/rate-limiter.ts';
import type { StreamHub } from './durable/stream-hub.ts';
import type { StreamTail } from './durable/stream-tail.ts';

/** Bindings and vars of the Worker (wrangler.toml `[vars]`, secrets, and what `npm start` passes). */
export interface Env {
  /** postgres://… of the mirror database. */
  DATABASE_URL: string;
  /** `host:port` of the local SQL-over-HTTP proxy; set only when the database is a plain local Postgres. */
  DB_LOCAL_PROXY?: string;
  /** What identifies the database's contents (`npm start` sets it): part of the edge cache key (cache-key.ts). */
  DATABASE_ID?: string;
  /**
   * The Durable Object location hint nearest the database's region (`enam` for Neon's aws-us-east-1): rate limiter
   * and EVM executor objects are created there (workers/durable/location-hint.ts).
   */
  DATABASE_LOCATION_HINT?: string;
  /** The shards of the per-client token buckets (wrangler.toml `durable_objects`); without it nothing is rate limited. */
  RATE_LIMITER?: DurableObjectNamespace<RateLimiter>;
  /** The shards that run POST /api/v1/contracts/call and own its throttles (wrangler.toml `durable_objects`). */
  EVM_EXECUTOR: DurableObjectNamespace<EvmExecutor>;
  /** The one reader of new rows for every WebSocket stream (docs/adr/0031-websocket-streams.md). */
  STREAM_TAIL: DurableObjectNamespace<StreamTail>;
  /** The shards that hold the WebSockets of `/api/v1/stream/...`, by stream key. */
  STREAM_HUB: DurableObjectNamespace<StreamHub>;
  /** Settings in the reference's tree, as `HIERO_MIRROR_REST_*`/`HIERO_MIRROR_WEB3_*` variables (workers/config/config.ts). */
  [setting: `HIERO_MIRROR_${string}`]: string | undefined;
}
