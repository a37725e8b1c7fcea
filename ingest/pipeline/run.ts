/**
 * The ingest loop: list what is new after the cursor, verify each file, derive its rows and write them
 * with the cursor in one transaction, oldest first. `untilIdle` returns once a listing finds nothing new;
 * otherwise it polls. A rejected file stops the run (until-idle) or is retried at the next poll. A file whose
 * missing signature files could still bring consensus is waited for, with a debug line, for `signatureWaitMs`
 * before it counts as rejected.
 */
import type pg from 'pg';
import { toHex } from '../decode/hash.ts';
import type { FileRows } from '../derive/file-rows.ts';
import { snapshotBalancesIfDue } from '../sink/balance-snapshot.ts';
import { updateEntityStakes } from '../sink/entity-stake.ts';
import { TableSchema } from '../sink/schema.ts';
import { writeFileRows } from '../sink/writer.ts';
import { sleep } from '../sleep.ts';
import type { PendingFile, RecordStreamSource } from '../sources/record-stream-source.ts';
import type { ConsensusOptions } from '../verify/consensus.ts';
import { RejectedFileError } from '../verify/errors.ts';
import { ADDRESS_BOOK_102, type AddressBooks } from './address-books.ts';
import { type FilePreparer, InlinePreparer, WorkerPreparer } from './file-preparer.ts';
import { changesVerifyingBook, type PreparedFile } from './prepare-file.ts';
import { Progress } from './progress.ts';
import { type Cursor, loadAddressBooks, loadCursor } from './state.ts';

export type Log = (fields: Record<string, unknown>) => void;

export interface IngestOptions {
  readonly source: RecordStreamSource;
  /** A connected client the ingest owns for the run. */
  readonly client: pg.ClientBase;
  /** NodeAddressBook bytes to start from when the database has no book yet. */
  readonly bootstrapAddressBook?: Uint8Array;
  readonly untilIdle?: boolean;
  readonly pollIntervalMs?: number;
  /** How long a polling run waits for signature files still arriving before it logs the file as rejected. */
  readonly signatureWaitMs?: number;
  readonly batchSize?: number;
  readonly consensus?: ConsensusOptions;
  readonly signal?: AbortSignal;
  readonly log?: Log;
  readonly progressIntervalMs?: number;
  /**
   * Verify and derive files in a worker thread while this one writes (default true); false keeps the whole
   * ingest on this thread.
   */
  readonly prepareThread?: boolean;
}

export interface IngestSummary {
  readonly files: number;
  readonly transactions: number;
  readonly cursor: Cursor | undefined;
}

/** Serialises writers: two ingest processes on one database never interleave their files. */
export const WRITER_LOCK = 7_283_911;

export async function runIngest(options: IngestOptions): Promise<IngestSummary> {
  const { source, client } = options;
  const schema = await TableSchema.load(client);
  // Plain inserts become COPY data, and row changes statements, while each file is derived (sink/).
  const preparer: FilePreparer =
    options.prepareThread === false ? new InlinePreparer(source, schema) : new WorkerPreparer(source, schema);
  try {
    return await ingestLoop(options, schema, preparer);
  } finally {
    await preparer.close();
  }
}

async function ingestLoop(options: IngestOptions, schema: TableSchema, preparer: FilePreparer): Promise<IngestSummary> {
  const { source, client, signal } = options;
  const log: Log = options.log ?? ((fields) => console.log(JSON.stringify({ service: 'ingest', ...fields })));
  let cursor = await loadCursor(client);
  const loaded = await loadAddressBooks(client, options.bootstrapAddressBook);
  let books = loaded.books;
  let bootstrapRows = loaded.bootstrapRows;
  const progress = new Progress(options.progressIntervalMs);
  let files = 0;
  let transactions = 0;
  /** The file whose signature files are awaited, and since when (epoch ms). */
  let awaited: { file: string; sinceMs: number } | undefined;
  log({ msg: 'ingest started', source: source.store.description, cursor: cursor?.name ?? null });

  while (!signal?.aborted) {
    const pending = await source.nextFiles(cursor?.name, options.batchSize ?? 100);
    if (pending.length === 0) {
      if (options.untilIdle) break;
      await sleep(options.pollIntervalMs ?? 2_000, signal);
      continue;
    }
    // One file of lookahead: the next file is verified and derived while this one is written.
    let ahead: Promise<Settled> | undefined;
    for (let i = 0; i < pending.length && !signal?.aborted; i++) {
      const file = pending[i] as PendingFile;
      try {
        const settled = await (ahead ?? settle(preparer.prepare(file, books.keys(), cursor, options.consensus)));
        ahead = undefined;
        if ('error' in settled) throw settled.error;
        const prepared = settled.value;
        const following = pending[i + 1];
        if (following && !changesVerifyingBook(prepared, ADDRESS_BOOK_102)) {
          const point = { hash: prepared.verified.parsed.hash, index: prepared.index };
          ahead = settle(preparer.prepare(following, books.keys(), point, options.consensus));
        }
        const written = await writePrepared(prepared, { ...options, log }, schema, books, cursor, bootstrapRows);
        bootstrapRows = undefined;
        if (written.skipped) {
          // Another writer got there first: continue from what the database now holds.
          cursor = written.cursor;
          books = (await loadAddressBooks(client, undefined)).books;
          break;
        }
        cursor = written.cursor;
        files++;
        transactions += written.count;
        const line = progress.record(written.count, written.cursor.consensusEnd);
        if (line) log(line);
      } catch (error) {
        ahead = undefined;
        if (!(error instanceof RejectedFileError)) throw error;
        if (awaited?.file !== error.file) awaited = { file: error.file, sinceMs: Date.now() };
        const waitedMs = Date.now() - awaited.sinceMs;
        if (error.signaturesPending && !options.untilIdle && waitedMs < (options.signatureWaitMs ?? 30_000)) {
          log({ msg: 'waiting for signature files', level: 'debug', file: error.file, reason: error.reason });
        } else {
          const waited = error.signaturesPending && !options.untilIdle ? { waitedMs } : {};
          log({ msg: 'file rejected', level: 'error', file: error.file, reason: error.reason, ...waited });
        }
        if (options.untilIdle) throw error;
        await sleep(options.pollIntervalMs ?? 2_000, signal);
        break;
      }
    }
  }
  log({ ...progress.summary(cursor?.consensusEnd), msg: 'ingest stopped' });
  return { files, transactions, cursor };
}

type Settled = { value: PreparedFile } | { error: unknown };

/** A promise that never rejects, so a lookahead failure surfaces only when its file's turn comes. */
function settle(promise: Promise<PreparedFile>): Promise<Settled> {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

async function writePrepared(
  prepared: PreparedFile,
  options: IngestOptions & { log: Log },
  schema: TableSchema,
  books: AddressBooks,
  cursor: Cursor | undefined,
  bootstrapRows: FileRows | undefined,
): Promise<{ cursor: Cursor; count: number; skipped: boolean }> {
  const { verified, derived, index } = prepared;
  const { parsed } = verified;
  const versions = books.follow(derived.rows);
  const { client } = options;
  const writeStart = performance.now();
  await client.query('begin');
  try {
    await client.query('select pg_advisory_xact_lock($1)', [WRITER_LOCK]);
    const latest = await loadCursor(client);
    const moved = latest !== undefined && (cursor === undefined || latest.consensusEnd !== cursor.consensusEnd);
    if (latest && moved) {
      // Already written (a replay), or another writer got there first: resume from what the database holds.
      await client.query('rollback');
      books.rollback();
      return { cursor: latest, count: 0, skipped: true };
    }
    if (bootstrapRows) await writeFileRows(client, schema, bootstrapRows);
    await writeFileRows(client, schema, derived.rows, prepared.statements);
    await snapshotBalancesIfDue(client, derived.consensusEnd);
    // The importer computes the staking period that a NodeStakeUpdate ends once the file is written.
    if (derived.rows.rows('node_stake').length > 0) await updateEntityStakes(client);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    books.rollback();
    throw error;
  }
  const stakes = derived.rows.rows('node_stake');
  books.commit(
    versions,
    stakes.length > 0 ? new Map(stakes.map((s) => [s.node_id as bigint, s.stake as bigint])) : undefined,
  );
  for (const { node, reason } of verified.signatureProblems) {
    options.log({ msg: 'invalid signature file', level: 'warn', file: parsed.name, node, reason });
  }
  options.log({
    msg: 'record file ingested',
    file: parsed.name,
    version: parsed.version,
    index: index.toString(),
    count: derived.count,
    consensusStart: derived.consensusStart.toString(),
    consensusEnd: derived.consensusEnd.toString(),
    hash: toHex(parsed.hash),
    node: verified.folder.node.accountName ?? verified.folder.node.nodeId?.toString(),
    sidecars: verified.sidecars.length,
    ms: Math.round(performance.now() - prepared.startedAt),
    prepareMs: prepared.prepareMs,
    writeMs: Math.round(performance.now() - writeStart),
  });
  return {
    cursor: { name: parsed.name, hash: parsed.hash, index, consensusEnd: derived.consensusEnd },
    count: derived.count,
    skipped: false,
  };
}
