/**
 * The CPU side of ingesting one file, before any database work: verify it against the address book and the
 * expected previous hash, then derive its rows. Runs one file ahead of the writer (see run.ts).
 */

import { FormatError } from '../decode/byte-reader.ts';
import { type DerivedFile, deriveRecordFile } from '../derive/record-file.ts';
import { fileStatements } from '../sink/file-statements.ts';
import type { TableSchema } from '../sink/schema.ts';
import type { Statement } from '../sink/statement.ts';
import type { PendingFile, RecordStreamSource } from '../sources/record-stream-source.ts';
import type { ConsensusOptions } from '../verify/consensus.ts';
import { RejectedFileError } from '../verify/errors.ts';
import type { NodeKeys } from '../verify/node-keys.ts';
import { type VerifiedFile, verifyFile } from './verify-file.ts';

export interface PreparedFile {
  readonly verified: VerifiedFile;
  readonly derived: DerivedFile;
  readonly index: bigint;
  /** `fileStatements` of the derived rows, built with them (writer.ts runs them). */
  readonly statements: readonly Statement[];
  readonly startedAt: number;
  /** Milliseconds spent verifying and deriving it. */
  readonly prepareMs: number;
}

/** Where the chain stands before this file: the hash it must link to and the index before it. */
export interface ChainPoint {
  readonly hash: Uint8Array;
  readonly index: bigint;
}

export async function prepareFile(
  source: RecordStreamSource,
  file: PendingFile,
  keys: NodeKeys,
  previous: ChainPoint | undefined,
  consensus: ConsensusOptions | undefined,
  schema: TableSchema,
): Promise<PreparedFile> {
  const startedAt = performance.now();
  // Epoch milliseconds, as the importer stamps a file it starts to read (StreamFilename.timestamp).
  const loadStart = BigInt(Date.now());
  const verified = await verifyFile(source, file, keys, previous?.hash, consensus);
  const { parsed } = verified;
  // v6 files carry their block number; older ones continue the count.
  const index = parsed.blockNumber ?? (previous ? previous.index + 1n : 0n);
  try {
    const columnKinds = schema.columnKinds();
    const derived = deriveRecordFile(parsed, { index, loadStart, sidecars: verified.sidecars, columnKinds });
    const statements = fileStatements(schema, derived.rows);
    return { verified, derived, index, statements, startedAt, prepareMs: Math.round(performance.now() - startedAt) };
  } catch (error) {
    if (error instanceof FormatError) throw new RejectedFileError(parsed.name, error.message);
    // Not the file's fault (a derivation bug): the run ends, with the file it could not derive named.
    throw new Error(`deriving ${parsed.name}: ${(error as Error)?.message ?? error}`, { cause: error });
  }
}

/** True when writing the file changes the book that verifies the next one, so the next must wait for it. */
export function changesVerifyingBook(prepared: PreparedFile, bookFileId: bigint): boolean {
  return prepared.derived.rows.rows('file_data').some((row) => row.entity_id === bookFileId);
}
