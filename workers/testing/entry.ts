import { createApp } from '../app.ts';
import { buildConfig, type Config } from '../config/config.ts';
import { readEnvSettings, reportEnvSettings } from '../config/env-settings.ts';
import type { Env } from '../env.ts';

/**
 * The Worker as the test harnesses run it: the deployed app plus `POST /__test/state`, which sets the settings
 * overrides and the clock for the requests that follow (the conformance kit's `config` and `fakeTime`).
 * Only this entry module has that route; the deployed Worker (`workers/index.ts`) cannot reach it.
 */
interface TestState {
  /** Settings overrides in the reference's tree, applied over the Worker's own (env) settings. */
  config?: unknown;
  /**
   * ISO-8601 instant the clock reads; absent or empty for the real clock. The clock stands still at that instant:
   * the reference's harness (sinon fake timers) advances in 20 ms steps, so a request it serves right after setting
   * the time reads the instant exactly, and the kit's expected responses (`next` links cut at now - 60d) carry it to
   * the nanosecond. The conformance hook sets the time again before every request of such a case.
   */
  fakeTime?: string;
}

let overrides: unknown = {};
let config: Config | undefined;
/** Ignored variables are reported once per isolate, not again after each case's settings. */
let reported = false;
let fakeNowNs: bigint | undefined;
/** Bumped by every state change, so nothing cached for an earlier case's data is served again. */
let generation = 0;
let isolateId: string | undefined;

const realNowNs = () => BigInt(Date.now()) * 1_000_000n;

const app = createApp({
  config: (env) => {
    if (!config) {
      const settings = readEnvSettings(env);
      if (!reported) reportEnvSettings(settings);
      reported = true;
      config = buildConfig(overrides, settings.config);
    }
    return config;
  },
  now: () => fakeNowNs ?? realNowNs(),
  cacheKeyPrefix: () => {
    // Random per isolate: the local cache store outlives the process, and a new process starts counting at 0.
    isolateId ??= crypto.randomUUID();
    return `test-${isolateId}-${generation}`;
  },
});

export { EvmExecutor } from '../durable/evm-executor.ts';
export { RateLimiter } from '../durable/rate-limiter.ts';
export { StreamHub } from '../durable/stream-hub.ts';
export { StreamTail } from '../durable/stream-tail.ts';

async function setState(request: Request): Promise<Response> {
  const state = (await request.json()) as TestState;
  overrides = state.config ?? {};
  config = undefined;
  generation += 1;
  fakeNowNs = state.fakeTime ? BigInt(Date.parse(state.fakeTime)) * 1_000_000n : undefined;
  return new Response(null, { status: 204 });
}

export default {
  fetch(request, env, ctx) {
    if (request.method === 'POST' && new URL(request.url).pathname === '/__test/state') return setState(request);
    return app.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Env>;
