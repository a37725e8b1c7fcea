/**
 * The ingest loop: list what is new after the cursor, verify each file, derive its rows and write them
 * with the cursor in one transaction, oldest first; with a second client, the next file's transaction begins
 * with its COPYs before this one commits. `untilIdle` returns once a listing finds nothing new;
 * otherwise it polls. A rejected file stops the run (until-idle) or is retried at the next poll. A file whose
 * missing signature files could still bring consensus is waited for, with a debug line, for `signatureWaitMs`
 * before it counts as rejected. Account balance files of the same source go in at their place in the record stream,
 * each in a transaction of its own (pipeline/balance-files.ts).
 */
import type pg from 'pg';
import { toHex } from '../decode/hash.ts';
import type { FileRows } from '../derive/file-rows.ts';
import { declareAppendOnlyHistory } from '../sink/append-only-history.ts';
import { snapshotBalancesIfDue } from '../sink/balance-snapshot.ts';
import { updateEntityStakes } from '../sink/entity-stake.ts';
import { TableSchema } from '../sink/schema.ts';
import { copyFileRows, writeFileRows, writeFileState } from '../sink/writer.ts';
import { WRITER_LOCK } from '../sink/writer-lock.ts';
import { sleep } from '../sleep.ts';
import type { PendingFile, RecordStreamSource } from '../sources/record-stream-source.ts';
import type { ConsensusOptions } from '../verify/consensus.ts';
import { RejectedFileError } from '../verify/errors.ts';
import { ADDRESS_BOOK_102, type AddressBooks } from './address-books.ts';
import { type BalanceFileSettings, BalanceFiles } from './balance-files.ts';
import { type FilePreparer, InlinePreparer, WorkerPreparer } from './file-preparer.ts';
import { changesVerifyingBook, type PreparedFile } from './prepare-file.ts';
import { Progress } from './progress.ts';
import { type Cursor, loadAddressBooks, loadCursor } from './state.ts';

export type Log = (fields: Record<string, unknown>) => void;

export interface IngestOptions {
  readonly source: RecordStreamSource;
  /** A connected client the ingest owns for the run. */
  readonly client: pg.ClientBase;
  /**
   * A second connected client the ingest owns for the run: files then alternate between the two connections, and a
   * file's plain-insert COPYs run while the previous file's upserts finish on the other one (Postgres on two cores).
   * Files still commit one by one, in order, each with its cursor.
   */
  readonly secondClient?: pg.ClientBase;
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
  /** Which account balance files are read beside the record stream (pipeline/balance-files.ts). */
  readonly balanceFiles?: BalanceFileSettings;
  /**
   * `hiero.mirror.importer.parser.record.historicalBalance.enabled` (default true): balance snapshots taken from the
   * ingested state every 15 minutes of consensus time (sink/balance-snapshot.ts).
   */
  readonly historicalBalance?: boolean;
}

export interface IngestSummary {
  readonly files: number;
  readonly transactions: number;
  readonly cursor: Cursor | undefined;
}

export async function runIngest(options: IngestOptions): Promise<IngestSummary> {
  const { source, client } = options;
  const schema = await TableSchema.load(client);
  await declareAppendOnlyHistory(client);
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
  const clients = options.secondClient ? [client, options.secondClient] : [client];
  let turn = 0;
  let cursor = await loadCursor(client);
  const loaded = await loadAddressBooks(client, options.bootstrapAddressBook);
  let books = loaded.books;
  let bootstrapRows = loaded.bootstrapRows;
  const progress = new Progress(options.progressIntervalMs);
  let files = 0;
  let transactions = 0;
  /** The file whose signature files are awaited, and since when (epoch ms). */
  let awaited: { file: string; sinceMs: number } | undefined;
  /** The file being finished (its upserts and commit), the next one's COPYs possibly running meanwhile. */
  let finishing: Promise<Written> | undefined;
  /** The file being finished changes the keys that verify the files after it (a new book or node stakes). */
  let finishingChangesKeys = false;
  /** Waits for the file being finished; false when another writer had written it (the caller lists again). */
  const settleFinishing = async (): Promise<boolean> => {
    if (!finishing) return true;
    const written = await finishing;
    finishing = undefined;
    bootstrapRows = undefined;
    cursor = written.cursor;
    if (written.skipped) {
      books = (await loadAddressBooks(client, undefined)).books;
      return false;
    }
    files++;
    transactions += written.count;
    const line = progress.record(written.count, written.cursor.consensusEnd);
    if (line) log(line);
    return true;
  };
  const balances = new BalanceFiles({
    source: source.balanceSource(),
    schema,
    ...(options.balanceFiles ? { settings: options.balanceFiles } : {}),
    log,
    ...(options.consensus ? { consensus: options.consensus } : {}),
    signatureWaitMs: options.signatureWaitMs ?? 30_000,
  });
  log({ msg: 'ingest started', source: source.store.description, cursor: cursor?.name ?? null });

  try {
    while (!signal?.aborted) {
      if (!(await settleFinishing())) continue;
      const pending = await source.nextFiles(cursor?.name, options.batchSize ?? 100);
      // Listed after the record files: a network's genesis balance file, written before its first record file, is
      // then seen before that file is written.
      await balances.refresh(client, cursor === undefined && pending.length > 0);
      // A balance file the record stream has already passed goes in now.
      const bounds = { untilIdle: options.untilIdle ?? false, ...(cursor ? { recordEnd: cursor.consensusEnd } : {}) };
      if ((await balances.writeDue(client, books.keys(), bounds)) === 'wait') {
        await sleep(options.pollIntervalMs ?? 2_000, signal);
        continue;
      }
      if (pending.length === 0) {
        if (options.untilIdle) break;
        await sleep(options.pollIntervalMs ?? 2_000, signal);
        continue;
      }
      // One file of lookahead: the next file is verified and derived while this one is written.
      let ahead: Promise<Settled<PreparedFile>> | undefined;
      for (let i = 0; i < pending.length && !signal?.aborted; i++) {
        const file = pending[i] as PendingFile;
        let copying: { client: pg.ClientBase; copied: Promise<Settled<void>> } | undefined;
        try {
          // A file prepared now links to the cursor and verifies with the keys that the file being finished leaves.
          if (!ahead && !(await settleFinishing())) break;
          const settled = await (ahead ?? settle(preparer.prepare(file, books.keys(), cursor, options.consensus)));
          ahead = undefined;
          if ('error' in settled) throw settled.error;
          const prepared = settled.value;
          const following = pending[i + 1];
          if (following && !changesVerifyingBook(prepared, ADDRESS_BOOK_102)) {
            if (finishingChangesKeys && !(await settleFinishing())) break;
            const point = { hash: prepared.verified.parsed.hash, index: prepared.index };
            ahead = settle(preparer.prepare(following, books.keys(), point, options.consensus));
          }
          // A balance file between the previous record file and this one is written first, after the previous commits.
          if (balances.dueBefore(prepared.derived.consensusStart)) {
            if (!(await settleFinishing())) break;
            const recordStart = prepared.derived.consensusStart;
            const step = await balances.writeDue(client, books.keys(), {
              recordStart,
              untilIdle: options.untilIdle ?? false,
            });
            if (step === 'wait') {
              ahead = undefined;
              await sleep(options.pollIntervalMs ?? 2_000, signal);
              break;
            }
          }
          const writer = clients[turn % clients.length] as pg.ClientBase;
          turn++;
          const startedAt = performance.now();
          copying = { client: writer, copied: settle(beginFile(writer, prepared)) };
          if (!(await settleFinishing())) {
            await abandon(copying);
            break;
          }
          const { copied } = copying;
          copying = undefined;
          finishingChangesKeys = changesKeys(prepared);
          finishing = finishFile(
            writer,
            copied,
            prepared,
            { ...options, log },
            schema,
            books,
            cursor,
            bootstrapRows,
            startedAt,
          );
          // Its failure surfaces where it is settled: before the next file's turn, or at the end.
          finishing.catch(() => {});
          // With one connection, the next file's transaction cannot begin before this one commits.
          if (clients.length === 1 && !(await settleFinishing())) break;
        } catch (error) {
          ahead = undefined;
          if (copying) await abandon(copying);
          await settleFinishing();
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
    await settleFinishing();
  } catch (error) {
    // The file being finished is committed or rolled back before the error ends the run.
    await finishing?.catch(() => {});
    throw error;
  }
  log({ ...progress.summary(cursor?.consensusEnd), msg: 'ingest stopped' });
  return { files, transactions, cursor };
}

/** True when writing the file changes the keys that verify the next ones: its 0.0.102 book or its node stakes. */
function changesKeys(prepared: PreparedFile): boolean {
  return changesVerifyingBook(prepared, ADDRESS_BOOK_102) || prepared.derived.rows.rows('node_stake').length > 0;
}

type Settled<T> = { value: T } | { error: unknown };

/** A promise that never rejects, so a failure surfaces only when its file's turn comes. */
function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

interface Written {
  readonly cursor: Cursor;
  readonly count: number;
  readonly skipped: boolean;
}

/** Opens the file's transaction and writes its COPY data (sink/writer.ts copyFileRows). */
async function beginFile(client: pg.ClientBase, prepared: PreparedFile): Promise<void> {
  await client.query('begin');
  await copyFileRows(client, prepared.derived.rows);
}

/** Rolls back a transaction `beginFile` opened for a file that is not written now. */
async function abandon(copying: { client: pg.ClientBase; copied: Promise<Settled<void>> }): Promise<void> {
  await copying.copied;
  await copying.client.query('rollback').catch(() => {});
}

/** Postgres's unique_violation: a COPY met rows another writer committed first. */
const UNIQUE_VIOLATION = '23505';

/**
 * Finishes the file `beginFile` started on `client`: under the writer lock, checks that the cursor is still where
 * this run left it, writes the rest of the file and commits. Runs only once the previous file has committed.
 */
async function finishFile(
  client: pg.ClientBase,
  copied: Promise<Settled<void>>,
  prepared: PreparedFile,
  options: IngestOptions & { log: Log },
  schema: TableSchema,
  books: AddressBooks,
  cursor: Cursor | undefined,
  bootstrapRows: FileRows | undefined,
  startedAt: number,
): Promise<Written> {
  const { verified, derived, index } = prepared;
  const { parsed } = verified;
  const versions = books.follow(derived.rows);
  try {
    const copy = await copied;
    if ('error' in copy) {
      if ((copy.error as { code?: string })?.code !== UNIQUE_VIOLATION) throw copy.error;
      // Another writer committed this file first: resume from what the database holds.
      await client.query('rollback');
      books.rollback();
      const latest = await loadCursor(client);
      if (!latest) throw copy.error;
      return { cursor: latest, count: 0, skipped: true };
    }
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
    await writeFileState(client, schema, derived.rows, prepared.statements);
    if (options.historicalBalance !== false) await snapshotBalancesIfDue(client, derived.consensusEnd);
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
    writeMs: Math.round(performance.now() - startedAt),
  });
  return {
    cursor: { name: parsed.name, hash: parsed.hash, index, consensusEnd: derived.consensusEnd },
    count: derived.count,
    skipped: false,
  };
}
