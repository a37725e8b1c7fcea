import { DurableObject } from 'cloudflare:workers';
import { createDatabase } from '../../db/client.ts';
import type { OpcodeSettings, ThrottleSettings, Web3Settings } from '../config/web3.ts';
import type { Env } from '../env.ts';
import { evmCachesOf } from '../evm/caches.ts';
import type { TraceOptions } from '../evm/trace/opcode-log.ts';
import { BlockCache } from '../routes/contracts/call/block-cache.ts';
import { tooManyRequests, unexpectedFailure } from '../routes/contracts/call/call-errors.ts';
import { withDeadline } from '../routes/contracts/call/deadline.ts';
import { type CallReply, executeCall } from '../routes/contracts/call/execute.ts';
import type { CallRequest } from '../routes/contracts/call/schemas.ts';
import { CallThrottle, REQUESTS_EXCEEDED, TokenBucket } from '../routes/contracts/call/throttle.ts';
import type { TransactionRef } from '../routes/contracts/opcodes/params.ts';
import { lookUpReplay } from '../routes/contracts/opcodes/replay.ts';
import { type TraceReply, traceReplay } from '../routes/contracts/opcodes/trace.ts';

/** A contract call (or estimate). */
export interface CallWork {
  readonly kind: 'call';
  readonly call: CallRequest;
  readonly settings: Web3Settings;
}

/** An opcode trace of a transaction of the ledger (GET /api/v1/contracts/results/{id}/opcodes). */
export interface OpcodesWork {
  readonly kind: 'opcodes';
  readonly transaction: TransactionRef;
  readonly options: TraceOptions;
  readonly settings: Web3Settings;
}

const throttleKey = (throttle: ThrottleSettings) =>
  `${throttle.requestsPerSecond}/${throttle.gasPerSecond}/${throttle.gasLimitRefundPercent}`;

/**
 * Runs EVM calls on ledger state and owns the throttles they pass: a request bucket and a gas bucket, each object one
 * of a fixed number of shards that clients are spread over (docs/adr/0016-evm-executor.md); and opcode traces, with a
 * request bucket of their own (docs/adr/0021-opcode-trace.md). The buckets live in
 * memory: an object that is evicted starts full again, which errs on the client's side.
 */
export class EvmExecutor extends DurableObject<Env> {
  private throttle: CallThrottle | undefined;
  private throttleSettings = '';
  private readonly blocks = new BlockCache();
  private opcodeBucket: { readonly rate: number; readonly bucket: TokenBucket } | undefined;

  /**
   * An opcode trace: its own request bucket, and no gas bucket (the reference's tracer takes no gas tokens). The
   * replay runs on the state just before the transaction, under the same deadline as a call. A method of its own
   * rather than a kind of `call`: an RPC stub's types keep one reply type per method.
   */
  async trace(request: OpcodesWork): Promise<TraceReply> {
    const { settings } = request;
    const started = Date.now();
    const bucket = this.opcodeBucketFor(settings.opcodes, started);
    if (!bucket.tryConsume(1, started)) {
      return { ok: false, error: tooManyRequests(REQUESTS_EXCEEDED, bucket.secondsUntil(1)) };
    }
    const db = createDatabase({ url: this.env.DATABASE_URL, localProxy: this.env.DB_LOCAL_PROXY });
    const deadlined = withDeadline(db, started + settings.requestTimeoutMs);
    try {
      const lookup = await lookUpReplay(deadlined, request.transaction, settings.evm);
      if (!lookup.ok) return lookup;
      return await traceReplay(deadlined, lookup.replay, settings.evm, evmCachesOf(db), request.options);
    } catch (error) {
      return { ok: false, error: unexpectedFailure(error) };
    }
  }

  private opcodeBucketFor(settings: OpcodeSettings, nowMs: number): TokenBucket {
    if (this.opcodeBucket?.rate !== settings.requestsPerSecond) {
      this.opcodeBucket = {
        rate: settings.requestsPerSecond,
        bucket: new TokenBucket(settings.requestsPerSecond, nowMs),
      };
    }
    return this.opcodeBucket.bucket;
  }

  async call(request: CallWork): Promise<CallReply> {
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
      return { ok: false, error: unexpectedFailure(error) };
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
