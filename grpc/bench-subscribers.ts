/**
 * For the stream benchmark: N gRPC subscribers of one topic, spread over connections as separate SDK clients would
 * be (at most `callsPerConnection` calls on each, the server's default cap), each message's arrival recorded with
 * the wall-clock time it reached its subscriber. The benchmark pairs arrivals with the time the ingest committed
 * each message's record file to get the delivery latency.
 */
import type * as grpc from '@grpc/grpc-js';
import { type MirrorClient, mirrorClient, type ProtoObject } from './client.ts';

export interface Delivery {
  /** Which subscriber, 0 to N-1. */
  readonly subscriber: number;
  readonly sequenceNumber: bigint;
  readonly consensusTimestampNs: bigint;
  /** Milliseconds since the epoch, with sub-millisecond precision. */
  readonly receivedAtMs: number;
}

export interface GrpcSubscribersOptions {
  /** `host:port` of the gRPC API. */
  readonly address: string;
  /** The topic's entity number in shard 0, realm 0 (`1234` for 0.0.1234). */
  readonly topicNum: bigint;
  readonly subscribers: number;
  /** Consensus start time in nanoseconds; default: now (live messages only). */
  readonly startTimeNs?: bigint;
  readonly callsPerConnection?: number;
  /** Called with every arrival as it happens (besides being kept in `deliveries`). */
  readonly onDelivery?: (delivery: Delivery) => void;
}

export interface GrpcSubscribers {
  readonly deliveries: readonly Delivery[];
  /** Calls that ended with an error, with the subscriber and the status. */
  readonly errors: readonly { subscriber: number; code: number; details: string }[];
  /** Cancels every call and closes every connection. */
  close(): void;
}

const nowMs = () => performance.timeOrigin + performance.now();

export function openGrpcSubscribers(options: GrpcSubscribersOptions): GrpcSubscribers {
  const callsPerConnection = options.callsPerConnection ?? 5;
  const deliveries: Delivery[] = [];
  const errors: { subscriber: number; code: number; details: string }[] = [];
  const clients: MirrorClient[] = [];
  const calls: grpc.ClientReadableStream<ProtoObject>[] = [];
  const startTimeNs = options.startTimeNs ?? BigInt(Date.now()) * 1_000_000n;
  const query = {
    topicID: { topicNum: String(options.topicNum) },
    consensusStartTime: { seconds: String(startTimeNs / 1_000_000_000n), nanos: Number(startTimeNs % 1_000_000_000n) },
  };
  let closing = false;
  for (let subscriber = 0; subscriber < options.subscribers; subscriber++) {
    if (subscriber % callsPerConnection === 0) clients.push(mirrorClient(options.address));
    const call = (clients.at(-1) as MirrorClient).subscribeTopic(query);
    call.on('data', (message: ProtoObject) => {
      const timestamp = (message.consensusTimestamp ?? {}) as { seconds?: string; nanos?: number };
      const delivery: Delivery = {
        subscriber,
        sequenceNumber: BigInt((message.sequenceNumber as string | undefined) ?? 0),
        consensusTimestampNs: BigInt(timestamp.seconds ?? 0) * 1_000_000_000n + BigInt(timestamp.nanos ?? 0),
        receivedAtMs: nowMs(),
      };
      deliveries.push(delivery);
      options.onDelivery?.(delivery);
    });
    call.on('error', (error: grpc.ServiceError) => {
      if (!closing) errors.push({ subscriber, code: error.code, details: error.details });
    });
    calls.push(call);
  }
  return {
    deliveries,
    errors,
    close() {
      closing = true;
      for (const call of calls) call.cancel();
      for (const client of clients) client.close();
    },
  };
}
