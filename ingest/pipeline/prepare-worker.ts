/**
 * The worker thread of file-preparer.ts: verifies and derives files (prepare-file.ts) off the writing thread.
 * Its object store is the main thread's, reached by messages: each `get` is answered there, so any store
 * (directory, bucket, a test's) works unchanged and only CPU work moves here.
 */

import { parentPort, workerData } from 'node:worker_threads';
import { TableSchema } from '../sink/schema.ts';
import type { ObjectStore } from '../sources/object-store.ts';
import { RecordStreamSource } from '../sources/record-stream-source.ts';
import { SourceUnavailableError } from '../transient-errors.ts';
import { RejectedFileError } from '../verify/errors.ts';
import { prepareFile } from './prepare-file.ts';
import {
  type BytesMessage,
  type FailedMessage,
  type PrepareRequest,
  sendable,
  type ToWorker,
} from './prepare-messages.ts';

if (!parentPort) throw new Error('prepare-worker.ts runs as a worker thread');
const port = parentPort;

const reads = new Map<number, (answer: BytesMessage) => void>();
let nextRead = 0;

const store: ObjectStore = {
  description: 'main thread',
  get(key) {
    const id = nextRead++;
    return new Promise((resolve, reject) => {
      reads.set(id, (answer) => {
        if (answer.error === undefined) resolve(answer.bytes);
        else reject(answer.unavailable ? new SourceUnavailableError(answer.error) : new Error(answer.error));
      });
      port.postMessage({ type: 'get', id, key });
    });
  },
  list: () => Promise.reject(new Error('the prepare worker does not list')),
  listFolders: () => Promise.reject(new Error('the prepare worker does not list')),
};
const source = new RecordStreamSource(store);
const schema = TableSchema.revive((workerData as { schema: TableSchema }).schema);

async function prepare(request: PrepareRequest): Promise<void> {
  try {
    const prepared = await prepareFile(source, request.file, request.keys, request.previous, request.consensus, schema);
    const message = sendable(request.id, prepared);
    port.postMessage(message.value, message.transfer);
  } catch (error) {
    const failed: FailedMessage =
      error instanceof RejectedFileError
        ? {
            type: 'failed',
            id: request.id,
            rejected: { file: error.file, reason: error.reason, signaturesPending: error.signaturesPending },
          }
        : {
            type: 'failed',
            id: request.id,
            message: (error as Error).message,
            stack: (error as Error).stack,
            unavailable: error instanceof SourceUnavailableError,
          };
    port.postMessage(failed);
  }
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'bytes') {
    reads.get(message.id)?.(message);
    reads.delete(message.id);
  } else {
    void prepare(message);
  }
});
