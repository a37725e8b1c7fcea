/**
 * `npm run ingest -- --source <dir | s3://bucket/prefix | gs://bucket/prefix> [--network <name>]
 *  [--address-book <file>] [--until-idle]` with DATABASE_URL (default: the local embedded database that
 * `npm start` runs). Verifies and writes record stream files; SIGTERM / SIGINT stop it between files.
 * Block streams: `--source blocknode://host:port[?tls=1]`, or `--stream blocks` for a directory or bucket of
 * block files, with `--start-block <n | -1>` and `--end-block <n>`; `--block-source <…>` beside a record stream
 * source switches to blocks at the cutover.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type pg from 'pg';
import { runBlockIngest } from './pipeline/block-run.ts';
import { runWithCutover } from './pipeline/cutover.ts';
import { runIngest } from './pipeline/run.ts';
import { runResiliently } from './resilient-run.ts';
import { BlockFileSource } from './sources/block-file-source.ts';
import { BlockNodeSource } from './sources/block-node-source.ts';
import type { BlockSource } from './sources/block-source.ts';
import { DirStore } from './sources/dir-store.ts';
import type { ObjectStore } from './sources/object-store.ts';
import { RecordStreamSource } from './sources/record-stream-source.ts';
import { S3Store, s3OptionsFromUrl } from './sources/s3-store.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '..');
/** The database `npm start` runs when DATABASE_URL is unset. */
const LOCAL_DATABASE_URL = 'postgres://postgres:postgres@127.0.0.1:54320/mirror_node';

export function storeFor(source: string): ObjectStore {
  return /^(s3|gs):\/\//.test(source) ? new S3Store(s3OptionsFromUrl(source)) : new DirStore(source);
}

/** The initial address book: `--address-book`, else the network's bootstrap book shipped beside the repo. */
function bootstrapBook(file: string | undefined, network: string | undefined): Uint8Array | undefined {
  if (file) return new Uint8Array(readFileSync(file));
  if (!network) return undefined;
  const shared = path.resolve(REPO_ROOT, '../shared/fixtures/streams/bootstrap-addressbook', network);
  return existsSync(shared) ? new Uint8Array(readFileSync(shared)) : undefined;
}

/** A block node (`blocknode://`) or a directory / bucket of block files. */
export function blockSourceFor(source: string, network: string | undefined): BlockSource {
  if (source.startsWith('blocknode://')) return new BlockNodeSource(source);
  return new BlockFileSource(storeFor(source), network ? { network } : {});
}

function blockNumberOption(value: string | undefined, name: string): bigint | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^-?\d+$/.test(value) || BigInt(value) < -1n) throw new Error(`${name} must be -1 or a block number`);
  return BigInt(value);
}

/** Milliseconds between listings; a value that is not a positive number would make the loop spin. */
function pollIntervalOption(value: string | undefined): number {
  const ms = Number(value);
  if (!Number.isFinite(ms) || ms <= 0) throw new Error('--poll-interval must be a positive number of milliseconds');
  return ms;
}

const log = (fields: Record<string, unknown>) => console.log(JSON.stringify({ service: 'ingest', ...fields }));

export async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      source: { type: 'string' },
      network: { type: 'string' },
      'address-book': { type: 'string' },
      'until-idle': { type: 'boolean', default: false },
      'poll-interval': { type: 'string', default: '2000' },
      stream: { type: 'string' },
      'block-source': { type: 'string' },
      'start-block': { type: 'string' },
      'end-block': { type: 'string' },
    },
  });
  const source = values.source ?? process.env.INGEST_SOURCE;
  if (!source) {
    console.error(
      'usage: npm run ingest -- --source <dir | s3://bucket/prefix | gs://bucket/prefix> [--network <name>] [--address-book <file>] [--until-idle]',
    );
    return 2;
  }
  const network = values.network ?? process.env.INGEST_NETWORK;
  const databaseUrl = process.env.DATABASE_URL ?? LOCAL_DATABASE_URL;
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    const startBlock = blockNumberOption(values['start-block'] ?? process.env.INGEST_START_BLOCK, '--start-block');
    const endBlock = blockNumberOption(values['end-block'] ?? process.env.INGEST_END_BLOCK, '--end-block');
    const blockSource = values['block-source'] ?? process.env.INGEST_BLOCK_SOURCE;
    // Wrapped record blocks are verified with the address book too (the network's bootstrap book at first).
    const bootstrapAddressBook = bootstrapBook(values['address-book'] ?? process.env.INGEST_ADDRESS_BOOK, network);
    const untilIdle = values['until-idle'] ?? false;
    const pollIntervalMs = pollIntervalOption(values['poll-interval']);
    const loop = { untilIdle, pollIntervalMs, signal: controller.signal, log };
    const blocks = {
      ...(startBlock !== undefined ? { startBlock } : {}),
      ...(endBlock !== undefined ? { endBlock } : {}),
      ...loop,
    };
    const recordSource = new RecordStreamSource(storeFor(source), network ? { network } : {});
    // After the options are checked: a bad one is refused without a database. Each run resumes from the cursor.
    const run = async (client: pg.Client) => {
      if (source.startsWith('blocknode://') || (values.stream ?? process.env.INGEST_STREAM) === 'blocks') {
        await runBlockIngest({ ...blocks, source: blockSourceFor(source, network), client, bootstrapAddressBook });
        return;
      }
      const records = { ...loop, source: recordSource, client, bootstrapAddressBook };
      if (blockSource) {
        const { startBlock: _ignored, ...rest } = blocks;
        await runWithCutover({
          records,
          blocks: { ...rest, source: blockSourceFor(blockSource, network) },
          untilIdle,
          pollIntervalMs,
        });
        return;
      }
      await runIngest(records);
    };
    await runResiliently({ databaseUrl, run, signal: controller.signal, log });
    return 0;
  } catch (error) {
    log({ msg: 'ingest failed', level: 'error', error: error instanceof Error ? error.message : String(error) });
    return 1;
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
  }
}

if (import.meta.main) process.exit(await main(process.argv.slice(2)));
