/**
 * What the writing thread and the prepare worker (prepare-worker.ts) say to each other, and how a prepared
 * file crosses: the raw items and sidecar records it was derived from stay behind, and so do the row objects its
 * statements were built from; its COPY text moves without a copy (transferred), the rest is cloned.
 */

import { FileRows } from '../derive/file-rows.ts';
import type { PendingFile } from '../sources/record-stream-source.ts';
import type { ConsensusOptions } from '../verify/consensus.ts';
import type { NodeKeys } from '../verify/node-keys.ts';
import type { ChainPoint, PreparedFile } from './prepare-file.ts';

export interface PrepareRequest {
  readonly type: 'prepare';
  readonly id: number;
  readonly file: PendingFile;
  readonly keys: NodeKeys;
  readonly previous: ChainPoint | undefined;
  readonly consensus: ConsensusOptions | undefined;
}

/** The answer to a worker's `get`: the object's bytes (undefined: no such object), or why reading failed. */
export interface BytesMessage {
  readonly type: 'bytes';
  readonly id: number;
  readonly bytes?: Uint8Array | undefined;
  readonly error?: string;
  /** The read failed because the source is unreachable for now (`SourceUnavailableError`): worth waiting out. */
  readonly unavailable?: boolean;
}

export type ToWorker = PrepareRequest | BytesMessage;

export interface PreparedMessage {
  readonly type: 'prepared';
  readonly id: number;
  readonly prepared: PreparedFile;
  /** `startedAt` on the wall clock: each thread's `performance.now()` has its own origin. */
  readonly startedAtEpoch: number;
}

export interface FailedMessage {
  readonly type: 'failed';
  readonly id: number;
  readonly rejected?: { readonly file: string; readonly reason: string; readonly signaturesPending: boolean };
  readonly message?: string;
  readonly stack?: string;
  /** The failure was a `SourceUnavailableError`, which the main thread raises again as one. */
  readonly unavailable?: boolean;
}

export type FromWorker =
  | PreparedMessage
  | FailedMessage
  | { readonly type: 'get'; readonly id: number; readonly key: string };

/** The message for a prepared file and the buffers it moves. */
export function sendable(id: number, prepared: PreparedFile): { value: PreparedMessage; transfer: ArrayBuffer[] } {
  const { verified, derived } = prepared;
  const trimmed: PreparedFile = {
    ...prepared,
    derived: {
      ...derived,
      rows: Object.assign(Object.create(FileRows.prototype) as FileRows, derived.rows, {
        changes: new Map(),
        replaces: new Map(),
        entityBalances: new Map(),
        tokenBalances: new Map(),
        allowanceSpends: new Map(),
      }),
    },
    verified: {
      ...verified,
      parsed: { ...verified.parsed, items: [] },
      sidecars: verified.sidecars.map((s) => ({ ...s, file: { ...s.file, records: [] } })),
    },
  };
  return {
    value: { type: 'prepared', id, prepared: trimmed, startedAtEpoch: performance.timeOrigin + prepared.startedAt },
    transfer: prepared.derived.rows.copies?.transferables() ?? [],
  };
}

/** The prepared file as this thread uses it. */
export function received(message: PreparedMessage): PreparedFile {
  const { prepared } = message;
  return {
    ...prepared,
    derived: { ...prepared.derived, rows: FileRows.revive(prepared.derived.rows) },
    startedAt: message.startedAtEpoch - performance.timeOrigin,
  };
}
