/**
 * Who verifies and derives files (prepare-file.ts) for the ingest loop: a worker thread, so that the next
 * file is decoded and turned into rows on one core while this thread streams the current one into Postgres
 * (which works on the other); or, for callers that want one thread, this thread itself. Either way the loop
 * still commits files one by one, in order, each with its cursor.
 */

import { Worker } from 'node:worker_threads';
import type { TableSchema } from '../sink/schema.ts';
import type { PendingFile, RecordStreamSource } from '../sources/record-stream-source.ts';
import { SourceUnavailableError } from '../transient-errors.ts';
import type { ConsensusOptions } from '../verify/consensus.ts';
import { RejectedFileError } from '../verify/errors.ts';
import type { NodeKeys } from '../verify/node-keys.ts';
import { type ChainPoint, type PreparedFile, prepareFile } from './prepare-file.ts';
import { type FromWorker, received, type ToWorker } from './prepare-messages.ts';

export interface FilePreparer {
  prepare(
    file: PendingFile,
    keys: NodeKeys,
    previous: ChainPoint | undefined,
    consensus: ConsensusOptions | undefined,
  ): Promise<PreparedFile>;
  close(): Promise<void>;
}

export class InlinePreparer implements FilePreparer {
  private readonly source: RecordStreamSource;
  private readonly schema: TableSchema;

  constructor(source: RecordStreamSource, schema: TableSchema) {
    this.source = source;
    this.schema = schema;
  }

  prepare(file: PendingFile, keys: NodeKeys, previous: ChainPoint | undefined, consensus?: ConsensusOptions) {
    return prepareFile(this.source, file, keys, previous, consensus, this.schema);
  }

  async close(): Promise<void> {}
}

interface Waiting {
  resolve(prepared: PreparedFile): void;
  reject(error: unknown): void;
}

export class WorkerPreparer implements FilePreparer {
  private readonly source: RecordStreamSource;
  private readonly worker: Worker;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;
  private failure: Error | undefined;

  constructor(source: RecordStreamSource, schema: TableSchema) {
    this.source = source;
    this.worker = new Worker(new URL('./prepare-worker.ts', import.meta.url), { workerData: { schema } });
    this.worker.on('message', (message: FromWorker) => this.receive(message));
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`the prepare worker exited (code ${code})`)));
  }

  prepare(
    file: PendingFile,
    keys: NodeKeys,
    previous: ChainPoint | undefined,
    consensus: ConsensusOptions | undefined,
  ): Promise<PreparedFile> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.post({ type: 'prepare', id, file, keys, previous, consensus });
    });
  }

  async close(): Promise<void> {
    this.failure ??= new Error('the prepare worker was closed');
    await this.worker.terminate();
  }

  private post(message: ToWorker, transfer: ArrayBuffer[] = []): void {
    this.worker.postMessage(message, transfer);
  }

  private receive(message: FromWorker): void {
    if (message.type === 'get') {
      void this.answer(message.id, message.key);
      return;
    }
    const waiting = this.waiting.get(message.id);
    if (!waiting) return;
    this.waiting.delete(message.id);
    if (message.type === 'prepared') {
      waiting.resolve(received(message));
    } else if (message.rejected) {
      waiting.reject(
        new RejectedFileError(message.rejected.file, message.rejected.reason, message.rejected.signaturesPending),
      );
    } else {
      const error = message.unavailable ? new SourceUnavailableError(message.message) : new Error(message.message);
      error.stack = message.stack;
      waiting.reject(error);
    }
  }

  /** Reads an object for the worker; a failed read becomes the worker's error, never this thread's. */
  private async answer(id: number, key: string): Promise<void> {
    try {
      const bytes = await this.source.store.get(key);
      // A copy with its own memory moves to the worker: the store may hand out views of memory it keeps
      // (a Buffer's slice is such a view; pooled Buffers cannot be transferred at all).
      const copy = bytes ? new Uint8Array(bytes) : undefined;
      this.post({ type: 'bytes', id, bytes: copy }, copy ? [copy.buffer as ArrayBuffer] : []);
    } catch (error) {
      const unavailable = error instanceof SourceUnavailableError;
      this.post({ type: 'bytes', id, error: String((error as Error)?.message ?? error), unavailable });
    }
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiting of this.waiting.values()) waiting.reject(this.failure);
    this.waiting.clear();
  }
}
