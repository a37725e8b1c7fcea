/**
 * The mirror node's gRPC API (ConsensusService, NetworkService) on @grpc/grpc-js, plaintext, reading Postgres
 * directly. Each call is one structured log line when it ends: method, status, messages sent, duration; a call the
 * server failed is also one line with its level and cause, repeats of the same failure held back and summarised
 * (common/repeated-lines.ts). Requests are capped at 1 KiB and each connection at the configured number of
 * concurrent calls, as the reference's server is.
 */
import * as grpc from '@grpc/grpc-js';
import pg from 'pg';
import type protobuf from 'protobufjs';
import { RepeatedLines } from '../common/repeated-lines.ts';
import { databaseOnNodePg } from '../db/node-database.ts';
import { CONSENSUS_SERVICE, mirrorTypes, NETWORK_SERVICE } from '../proto/mirror.ts';
import { type AddressBookQueryObject, getNodes } from './network/get-nodes.ts';
import type { GrpcSettings } from './settings.ts';
import { toStatus } from './status.ts';
import type { TopicQueryObject } from './topic/filter.ts';
import { toTopicResponse } from './topic/response.ts';
import { subscribeTopic } from './topic/subscribe-topic.ts';
import { type Log, TopicTail } from './topic/topic-tail.ts';

/** The reference's `max-inbound-message-size`: a query is a few dozen bytes. */
const MAX_REQUEST_BYTES = 1024;
const SHUTDOWN_GRACE_MS = 2_000;
const SHUTTING_DOWN = 'The server is shutting down';
/** How often the summaries of failures that stopped repeating are written. */
const FLUSH_INTERVAL_MS = 1_000;

export interface GrpcServerOptions {
  readonly databaseUrl: string;
  readonly settings: GrpcSettings;
  /** Address to listen on; the port is `settings.port` (0: any free one). */
  readonly host: string;
  readonly log: Log;
}

export interface GrpcServer {
  /** `host:port` it listens on. */
  readonly address: string;
  readonly port: number;
  /** The shared poll, whose statement count the stream benchmark reports. */
  readonly tail: TopicTail;
  close(): Promise<void>;
}

function serverStreaming(service: string, name: string, request: protobuf.Type, response: protobuf.Type) {
  return {
    path: `/${service}/${name}`,
    requestStream: false,
    responseStream: true,
    requestSerialize: (value: object) => Buffer.from(request.encode(request.fromObject(value)).finish()),
    requestDeserialize: (bytes: Buffer) => request.toObject(request.decode(bytes), { longs: String }),
    responseSerialize: (value: object) => Buffer.from(response.encode(response.fromObject(value)).finish()),
    responseDeserialize: (bytes: Buffer) => response.toObject(response.decode(bytes), { longs: String }),
  } satisfies grpc.MethodDefinition<object, object>;
}

type Call = grpc.ServerWritableStream<object, object>;

/** Writes what `source` yields to the call, honouring its flow control, and ends it with the right status. */
async function serve(
  call: Call,
  method: string,
  active: Set<AbortController>,
  log: Log,
  failures: RepeatedLines,
  source: (signal: AbortSignal) => AsyncGenerator<object>,
): Promise<void> {
  const controller = new AbortController();
  const { signal } = controller;
  active.add(controller);
  call.on('cancelled', () => controller.abort());
  // Read now: a cancelled call no longer knows its peer.
  const peer = call.getPeer();
  const started = performance.now();
  let messages = 0;
  let outcome = 'OK';
  try {
    for await (const message of source(signal)) {
      if (signal.aborted) break;
      messages++;
      if (!call.write(message)) await drained(call, signal);
    }
    if (call.cancelled) {
      outcome = 'CANCELLED';
    } else if (signal.aborted) {
      // The server is stopping: UNAVAILABLE makes the SDKs subscribe again (elsewhere, or here once it is back).
      outcome = 'UNAVAILABLE';
      call.emit('error', { code: grpc.status.UNAVAILABLE, details: SHUTTING_DOWN });
    } else {
      call.end();
    }
  } catch (error) {
    const { code, details, serverError } = toStatus(error);
    outcome = grpc.status[code] ?? String(code);
    if (serverError) {
      const cause = error instanceof Error ? error.message : String(error);
      const level = code === grpc.status.UNAVAILABLE ? 'warn' : 'error';
      failures.write(`${method} ${code} ${cause}`, {
        msg: 'call failed',
        level,
        method,
        status: outcome,
        error: cause,
      });
    }
    if (!call.cancelled) call.emit('error', { code, details });
  } finally {
    active.delete(controller);
    log({
      msg: 'call',
      method,
      status: outcome,
      messages,
      ms: Math.round(performance.now() - started),
      peer,
    });
  }
}

function drained(call: Call, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      call.off('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    call.once('drain', done);
    signal.addEventListener('abort', done);
  });
}

export async function startGrpcServer(options: GrpcServerOptions): Promise<GrpcServer> {
  const { settings, log } = options;
  const types = mirrorTypes();
  const failures = new RepeatedLines(log);
  const flushing = setInterval(() => failures.flush(), FLUSH_INTERVAL_MS).unref();
  const db = new pg.Pool({
    connectionString: options.databaseUrl,
    max: 10,
    options: `-c statement_timeout=${settings.statementTimeoutMs}`,
  });
  // An idle client losing its connection is replaced on the next query; the error must not end the process.
  db.on('error', (error) =>
    failures.write(`connection ${error.message}`, {
      msg: 'database connection lost',
      level: 'warn',
      error: error.message,
    }),
  );
  const database = databaseOnNodePg(db);
  const tail = new TopicTail(database, { ...settings.listener, log });
  const active = new Set<AbortController>();
  const now = () => BigInt(Date.now()) * 1_000_000n;

  const server = new grpc.Server({
    'grpc.max_receive_message_length': MAX_REQUEST_BYTES,
    'grpc.max_concurrent_streams': settings.maxConcurrentCallsPerConnection,
  });
  server.addService(
    {
      subscribeTopic: serverStreaming(
        CONSENSUS_SERVICE,
        'subscribeTopic',
        types.ConsensusTopicQuery,
        types.ConsensusTopicResponse,
      ),
    },
    {
      subscribeTopic: (call: Call) =>
        void serve(call, 'subscribeTopic', active, log, failures, async function* (signal) {
          const context = { db: database, tail, settings, signal, now };
          for await (const message of subscribeTopic(call.request as TopicQueryObject, context)) {
            yield toTopicResponse(message, log);
          }
        }),
    },
  );
  server.addService(
    { getNodes: serverStreaming(NETWORK_SERVICE, 'getNodes', types.AddressBookQuery, types.NodeAddress) },
    {
      getNodes: (call: Call) =>
        void serve(call, 'getNodes', active, log, failures, (signal) =>
          getNodes(call.request as AddressBookQueryObject, { db, settings, signal }),
        ),
    },
  );

  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${options.host}:${settings.port}`, grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    );
  });
  const address = `${options.host}:${port}`;
  return {
    address,
    port,
    tail,
    async close() {
      clearInterval(flushing);
      tail.stop();
      for (const controller of active) controller.abort();
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, SHUTDOWN_GRACE_MS);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
      await db.end();
    },
  };
}
