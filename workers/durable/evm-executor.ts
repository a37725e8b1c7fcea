import { DurableObject } from 'cloudflare:workers';
import { createDatabase } from '../../db/client.ts';
import type { ThrottleSettings, Web3Settings } from '../config/web3.ts';
import type { Env } from '../env.ts';
import { evmCachesOf } from '../evm/caches.ts';
import { BlockCache } from '../routes/contracts/call/block-cache.ts';
import { tooManyRequests } from '../routes/contracts/call/call-errors.ts';
import { withDeadline } from '../routes/contracts/call/deadline.ts';
import { type CallReply, executeCall } from '../routes/contracts/call/execute.ts';
import type { CallRequest } from '../routes/contracts/call/schemas.ts';
import { CallThrottle } from '../routes/contracts/call/throttle.ts';

/** A unit of EVM work: a contract call (or estimate) today; the opcode tracer's replays will be another kind. */
export type ExecutorRequest = { readonly kind: 'call'; readonly call: CallRequest; readonly settings: Web3Settings };

const throttleKey = (throttle: ThrottleSettings) =>
  `${throttle.requestsPerSecond}/${throttle.gasPerSecond}/${throttle.gasLimitRefundPercent}`;

/**
 * Runs EVM calls on ledger state and owns the throttles they pass: a request bucket and a gas bucket, each object one
 * of a fixed number of shards that clients are spread over (docs/adr/0016-evm-executor.md). The buckets live in
 * memory: an object that is evicted starts full again, which errs on the client's side.
 */
export class EvmExecutor extends DurableObject<Env> {
  private throttle: CallThrottle | undefined;
  private throttleSettings = '';
  private readonly blocks = new BlockCache();

  async call(request: ExecutorRequest): Promise<CallReply> {
    const { call, settings } = request;
    const started = Date.now();
    const throttle = this.throttleFor(settings.throttle, started);
    const admission = throttle.admit(call.gas, started);
    if (!admission.admitted) {
      return { ok: false, error: tooManyRequests(admission.detail, admission.retryAfterSeconds) };
    }
    const db = createDatabase({ url: this.env.DATABASE_URL, localProxy: this.env.DB_LOCAL_PROXY });
    let gasUsed: bigint | undefined;
    try {
      // The deadline wraps the client per request; the EVM's shared caches stay those of the client itself.
      const deadlined = withDeadline(db, started + settings.requestTimeoutMs);
      const execution = await executeCall(deadlined, call, settings, this.blocks, evmCachesOf(db));
      if (execution.kind === 'refused') {
        throttle.restore(call.gas, Date.now());
        return execution.reply;
      }
      gasUsed = execution.gasUsed;
      throttle.refund(call.gas, gasUsed, Date.now());
      return execution.reply;
    } catch (error) {
      throttle.refund(call.gas, undefined, Date.now());
      throw error;
    }
  }

  /** The buckets for these settings: test mode may change them between requests, which starts them afresh. */
  private throttleFor(settings: ThrottleSettings, nowMs: number): CallThrottle {
    const key = throttleKey(settings);
    if (!this.throttle || key !== this.throttleSettings) {
      this.throttle = new CallThrottle(settings, nowMs);
      this.throttleSettings = key;
    }
    return this.throttle;
  }
}
