/**
 * The block ingest loop: read each block from the source in number order, check that it is the next block and
 * chains onto the last one written, derive its rows and write them with the `record_file` row (the cursor) in
 * one transaction. Where to start: after the newest `record_file` (a record stream cursor hands over to blocks
 * at its index + 1, the cutover), else `startBlock` (-1: the earliest block the source has), else 0.
 * A wrapped record block must carry consensus signatures for its record file (address book keys, 1/3 rule).
 * Every block, native or wrapped, follows the address book files (0.0.101/0.0.102) as record files do: their
 * updates become `address_book` versions and the newest 0.0.102 book verifies later wrapped record blocks.
 * A native block's own proof (a TSS signature, or a state proof) is not verified: that takes the hinTS / WRAPS
 * verification of the consensus node's native cryptography library, which has no JavaScript implementation.
 * Like the record loop, a rejected block writes nothing, ends an until-idle run, and is otherwise retried at the
 * next poll; balance snapshots are taken every 15 minutes of consensus time.
 */
import type pg from 'pg';
import { blockFileName } from '../decode/block-file.ts';
import { type ParsedBlock, readBlock } from '../decode/block-reader.ts';
import { FormatError } from '../decode/byte-reader.ts';
import { bytesEqual, fromHex, isAllZero, toHex } from '../decode/hash.ts';
import { BLOCK_FILE_VERSION, type DerivedBlock, deriveBlock } from '../derive/block.ts';
import type { FileRows } from '../derive/file-rows.ts';
import { declareAppendOnlyHistory } from '../sink/append-only-history.ts';
import { snapshotBalancesIfDue } from '../sink/balance-snapshot.ts';
import { updateEntityStakes } from '../sink/entity-stake.ts';
import { TableSchema } from '../sink/schema.ts';
import { writeFileRows } from '../sink/writer.ts';
import { WRITER_LOCK } from '../sink/writer-lock.ts';
import { sleep } from '../sleep.ts';
import type { BlockSource, SourcedBlock } from '../sources/block-source.ts';
import type { ConsensusOptions } from '../verify/consensus.ts';
import { RejectedFileError } from '../verify/errors.ts';
import { verifyWrappedProof } from '../verify/wrapped-proof.ts';
import type { AddressBooks } from './address-books.ts';
import { firstBlock } from './block-start.ts';
import { Progress } from './progress.ts';
import type { Log } from './run.ts';
import { loadAddressBooks } from './state.ts';

export interface BlockIngestOptions {
  readonly source: BlockSource;
  readonly client: pg.ClientBase;
  /** Used only when the database has no record file yet; -1 = the earliest block the source has. */
  readonly startBlock?: bigint;
  /** The last block to ingest (inclusive). */
  readonly endBlock?: bigint;
  readonly untilIdle?: boolean;
  readonly pollIntervalMs?: number;
  readonly signal?: AbortSignal;
  readonly log?: Log;
  readonly progressIntervalMs?: number;
  /** NodeAddressBook bytes verifying wrapped record blocks when the database has no book yet. */
  readonly bootstrapAddressBook?: Uint8Array;
  /** The consensus rule for the signatures of wrapped record blocks (1/3 of the weight by default). */
  readonly consensus?: ConsensusOptions;
  /** `hiero.mirror.importer.parser.record.historicalBalance.enabled` (default true): sink/balance-snapshot.ts. */
  readonly historicalBalance?: boolean;
}

export interface BlockCursor {
  readonly index: bigint;
  readonly hash: Uint8Array;
  readonly version: number;
  /** Root hash of the wrapped record block the newest record file came in, if it came in one. */
  readonly wrappedHash: Uint8Array | undefined;
  readonly consensusEnd: bigint;
}

export interface BlockIngestSummary {
  readonly blocks: number;
  readonly transactions: number;
  readonly cursor: BlockCursor | undefined;
}

export async function loadBlockCursor(client: pg.ClientBase): Promise<BlockCursor | undefined> {
  const result = await client.query<{
    index: string;
    hash: string;
    version: number;
    wrapped: Buffer | null;
    consensus_end: string;
  }>(
    `select index, hash, version, wrapped_record_block_hash as wrapped, consensus_end
       from record_file order by consensus_end desc limit 1`,
  );
  const row = result.rows[0];
  if (!row) return undefined;
  return {
    index: BigInt(row.index),
    hash: fromHex(row.hash),
    version: row.version,
    wrappedHash: row.wrapped ? new Uint8Array(row.wrapped) : undefined,
    consensusEnd: BigInt(row.consensus_end),
  };
}

/** Why `block` cannot follow `cursor`, or undefined when it can. */
function chainProblem(block: ParsedBlock, derived: DerivedBlock, cursor: BlockCursor | undefined): string | undefined {
  if (!cursor) return undefined;
  if (block.number !== cursor.index + 1n) return `block ${block.number} does not follow block ${cursor.index}`;
  if (block.wrapped) {
    const previous = fromHex(derived.rows.rows('record_file')[0]?.prev_hash as string);
    if (!isAllZero(previous) && !bytesEqual(previous, cursor.hash)) {
      return `previous record file hash ${toHex(previous)} does not match ${toHex(cursor.hash)}`;
    }
  }
  // The block chain runs through native blocks and wrapped record blocks; a record file read from a record
  // stream has no block hash, so the first block after it (the cutover) cannot be checked against it.
  const expected = cursor.version === BLOCK_FILE_VERSION ? cursor.hash : cursor.wrappedHash;
  if (expected && !bytesEqual(block.previousHash, expected)) {
    return `previous block hash ${toHex(block.previousHash)} does not match ${toHex(expected)}`;
  }
  return undefined;
}

export async function runBlockIngest(options: BlockIngestOptions): Promise<BlockIngestSummary> {
  const { source, client, signal } = options;
  const log: Log = options.log ?? ((fields) => console.log(JSON.stringify({ service: 'ingest', ...fields })));
  const schema = await TableSchema.load(client);
  await declareAppendOnlyHistory(client);
  let cursor = await loadBlockCursor(client);
  const start = cursor ? cursor.index + 1n : await firstBlock(source, options, log);
  const progress = new Progress(options.progressIntervalMs);
  let blocks = 0;
  let transactions = 0;
  log({ msg: 'block ingest started', source: source.description, start: start.toString() });
  if (options.endBlock !== undefined && start > options.endBlock) return { blocks, transactions, cursor };
  const books = new BookState(client, options.bootstrapAddressBook);
  // Like the record loop: a rejected block stops an until-idle run, otherwise it is retried at the next poll
  // (the source is asked again from the block after the cursor, so a corrected block can take its place).
  while (!signal?.aborted) {
    const from = cursor ? cursor.index + 1n : start;
    if (options.endBlock !== undefined && from > options.endBlock) break;
    const stream = source.blocks(from, {
      ...(options.endBlock !== undefined ? { end: options.endBlock } : {}),
      ...(options.untilIdle !== undefined ? { untilIdle: options.untilIdle } : {}),
      ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
      ...(signal ? { signal } : {}),
    });
    let done = true;
    try {
      for await (const sourced of stream) {
        const written = await ingestBlock(sourced, { client, schema, cursor, log, books, options });
        cursor = written.cursor;
        if (written.skipped) continue;
        blocks++;
        transactions += written.count;
        const line = progress.record(written.count, cursor.consensusEnd);
        if (line) log(line);
        if (signal?.aborted || (options.endBlock !== undefined && cursor.index >= options.endBlock)) break;
      }
    } catch (error) {
      if (!(error instanceof RejectedFileError)) throw error;
      log({ msg: 'block rejected', level: 'error', file: error.file, reason: error.reason });
      if (options.untilIdle) throw error;
      await sleep(options.pollIntervalMs ?? 2_000, signal);
      done = false;
    }
    if (done) break;
  }
  log({ ...progress.summary(cursor?.consensusEnd), msg: 'block ingest stopped' });
  return { blocks, transactions, cursor };
}

/**
 * The address books, loaded at the first block. Native blocks verify nothing with them, so they make do without
 * one (an empty book following the book files); a wrapped record block needs one (stored or bootstrap).
 */
class BookState {
  private books: AddressBooks | undefined;
  /** The loaded book is the empty stand-in: the database had none and no bootstrap book was given. */
  private missing = false;
  private bootstrapRows: FileRows | undefined;
  private readonly client: pg.ClientBase;
  private readonly bootstrap: Uint8Array | undefined;

  constructor(client: pg.ClientBase, bootstrap: Uint8Array | undefined) {
    this.client = client;
    this.bootstrap = bootstrap;
  }

  async load(required: boolean): Promise<{ books: AddressBooks; bootstrapRows: FileRows | undefined }> {
    if (!this.books || (required && this.missing)) {
      const loaded = await loadAddressBooks(this.client, this.bootstrap, !required);
      this.books = loaded.books;
      this.bootstrapRows = loaded.bootstrapRows;
      this.missing = !this.bootstrap && loaded.books.nodes.length === 0;
    }
    return { books: this.books, bootstrapRows: this.bootstrapRows };
  }

  /** After a write: the bootstrap book is in the database; after a lost race, reload what it holds. */
  written(): void {
    this.bootstrapRows = undefined;
  }

  forget(): void {
    this.books = undefined;
    this.bootstrapRows = undefined;
  }
}

interface BlockContext {
  readonly client: pg.ClientBase;
  readonly schema: TableSchema;
  readonly cursor: BlockCursor | undefined;
  readonly log: Log;
  readonly books: BookState;
  readonly options: BlockIngestOptions;
}

async function ingestBlock(
  sourced: SourcedBlock,
  context: BlockContext,
): Promise<{ cursor: BlockCursor; count: number; skipped: boolean }> {
  const { client, schema, cursor, log } = context;
  const started = performance.now();
  const name = blockFileName(sourced.number);
  let block: ParsedBlock;
  let derived: DerivedBlock;
  try {
    block = readBlock(name, sourced.items, sourced.size);
    if (block.number !== sourced.number) {
      throw new FormatError(`block header number ${block.number} does not match the requested ${sourced.number}`);
    }
    derived = deriveBlock(block, BigInt(Date.now()));
  } catch (error) {
    if (error instanceof FormatError) throw new RejectedFileError(sourced.origin, error.message);
    // Not the block's fault (a reader or derivation bug): the run ends, naming the block, as the record loop does.
    throw new Error(`deriving ${sourced.origin}: ${(error as Error)?.message ?? error}`, { cause: error });
  }
  const problem = chainProblem(block, derived, cursor);
  if (problem) throw new RejectedFileError(sourced.origin, problem);
  const books = await context.books.load(block.wrapped !== undefined);
  if (block.wrapped) {
    const fileHash = fromHex(derived.rows.rows('record_file')[0]?.file_hash as string);
    verifyWrappedProof(
      sourced.origin,
      block.number,
      block.wrapped,
      fileHash,
      books.books.keys(),
      context.options.consensus,
    );
  }
  // A block may update the address book (0.0.102) that verifies the next wrapped record blocks.
  const versions = books.books.follow(derived.rows);
  await client.query('begin');
  try {
    await client.query('select pg_advisory_xact_lock($1)', [WRITER_LOCK]);
    const latest = await loadBlockCursor(client);
    if (latest && (!cursor || latest.consensusEnd !== cursor.consensusEnd)) {
      // Written already (a replay) or by another writer: continue from what the database holds.
      await client.query('rollback');
      books.books.rollback();
      context.books.forget();
      return { cursor: latest, count: 0, skipped: true };
    }
    if (books.bootstrapRows) await writeFileRows(client, schema, books.bootstrapRows);
    await writeFileRows(client, schema, derived.rows);
    if (context.options.historicalBalance !== false) await snapshotBalancesIfDue(client, derived.consensusEnd);
    // The importer computes the staking period that a NodeStakeUpdate ends once the file is written.
    if (derived.rows.rows('node_stake').length > 0) await updateEntityStakes(client);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    books.books.rollback();
    throw error;
  }
  const stakes = derived.rows.rows('node_stake');
  books.books.commit(
    versions,
    stakes.length > 0 ? new Map(stakes.map((s) => [s.node_id as bigint, s.stake as bigint])) : undefined,
  );
  context.books.written();
  log({
    msg: 'block ingested',
    block: block.number.toString(),
    file: derived.name,
    version: block.wrapped ? block.wrapped.version : BLOCK_FILE_VERSION,
    count: derived.count,
    consensusStart: derived.consensusStart.toString(),
    consensusEnd: derived.consensusEnd.toString(),
    hash: toHex(block.hash),
    origin: sourced.origin,
    ms: Math.round(performance.now() - started),
  });
  return {
    cursor: {
      index: derived.index,
      hash: derived.hash,
      version: block.wrapped ? block.wrapped.version : BLOCK_FILE_VERSION,
      wrappedHash: block.wrapped ? block.hash : undefined,
      consensusEnd: derived.consensusEnd,
    },
    count: derived.count,
    skipped: false,
  };
}
