// wrangler.toml binds these classes: a Worker that does not export them does not start.
export { EvmExecutor } from '../durable/evm-executor.ts';
export { RateLimiter } from '../durable/rate-limiter.ts';
export { StreamHub } from '../durable/stream-hub.ts';
export { StreamTail } from '../durable/stream-tail.ts';
