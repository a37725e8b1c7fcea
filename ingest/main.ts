/**
 * `npm run ingest -- --source <…> [options]` with DATABASE_URL (default: the local embedded database that
 * `npm start` runs): record streams, or block streams (`--stream blocks`, `blocknode://`); `--help` lists the
 * options (ingest/options.ts). Verifies and writes stream files; SIGTERM / SIGINT stop it between files.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { HELP, parseIngestOptions } from './options.ts';
import { DEFAULT_BALANCE_FILE_SETTINGS } from './pipeline/balance-files.ts';
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
import { unusableSettings } from './usable-settings.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '..');
/** The database `npm start` runs when DATABASE_URL is unset. */
const LOCAL_DATABASE_URL = 'postgres://postgres:postgres@127.0.0.1:54320/mirror_node';

export function storeFor(source: string): ObjectStore {
  return /^(s3|gs):\/\//.test(source) ? new S3Store(s3OptionsFromUrl(source)) : new DirStore(source);
}

/** The initial address book: `--address-book`, else the network's bootstrap book (ingest/bootstrap-addressbook). */
function bootstrapBook(file: string | undefined, network: string | undefined): Uint8Array | undefined {
  if (file) return new Uint8Array(readFileSync(file));
  if (!network) return undefined;
  const shipped = path.join(REPO_ROOT, 'ingest/bootstrap-addressbook', network);
  return existsSync(shipped) ? new Uint8Array(readFileSync(shipped)) : undefined;
}

/** A block node (`blocknode://`) or a directory / bucket of block files. */
export function blockSourceFor(source: string, network: string | undefined): BlockSource {
  if (source.startsWith('blocknode://')) return new BlockNodeSource(source);
  return new BlockFileSource(storeFor(source), network ? { network } : {});
}

/** A source that holds block files and no record streams was meant for `--stream blocks`: say so, not less. */
async function refuseBlockFiles(records: RecordStreamSource, source: string, network: string | undefined) {
  if ((await records.nodeFolders()).length > 0) return;
  if ((await blockSourceFor(source, network).earliest()) === undefined) return;
  throw new Error(`${source} holds block files, not record streams: read them with --stream blocks`);
}

const log = (fields: Record<string, unknown>) => console.log(JSON.stringify({ service: 'ingest', ...fields }));

export async function main(argv: string[]): Promise<number> {
  const parsed = parseIngestOptions(argv, process.env);
  if ('help' in parsed) {
    console.log(HELP);
    return 0;
  }
  if ('error' in parsed) {
    console.error(`ingest: ${parsed.error} (npm run ingest -- --help lists the options)`);
    return 2;
  }
  const { options } = parsed;
  const { source, network, untilIdle, pollIntervalMs, signatureWaitMs, startBlock, endBlock, blockSource } = options;
  const databaseUrl = process.env.DATABASE_URL || LOCAL_DATABASE_URL;
  const unusable = await unusableSettings(databaseUrl, blockSource ? [source, blockSource] : [source]);
  if (unusable) {
    console.error(`ingest: ${unusable}`);
    return 2;
  }
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    // Wrapped record blocks are verified with the address book too (the network's bootstrap book at first).
    const bootstrapAddressBook = bootstrapBook(options.addressBook, network);
    const loop = { untilIdle, pollIntervalMs, signal: controller.signal, log };
    const blocks = {
      historicalBalance: options.historicalBalance,
      ...(startBlock !== undefined ? { startBlock } : {}),
      ...(endBlock !== undefined ? { endBlock } : {}),
      ...loop,
    };
    const recordSource = new RecordStreamSource(storeFor(source), network ? { network } : {});
    // After the options are checked: a bad one is refused without a database. Each run resumes from the cursor.
    const run = async (client: pg.Client, secondClient: pg.Client | undefined) => {
      if (options.stream === 'blocks') {
        await runBlockIngest({ ...blocks, source: blockSourceFor(source, network), client, bootstrapAddressBook });
        return;
      }
      await refuseBlockFiles(recordSource, source, network);
      const records = {
        ...loop,
        signatureWaitMs,
        source: recordSource,
        client,
        ...(secondClient ? { secondClient } : {}),
        bootstrapAddressBook,
        balanceFiles: { ...DEFAULT_BALANCE_FILE_SETTINGS, downloaderEnabled: options.balanceDownloader },
        historicalBalance: options.historicalBalance,
      };
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
    // Record files are written over two connections (ingest/pipeline/run.ts); blocks over one.
    const secondConnection = options.stream !== 'blocks';
    await runResiliently({ databaseUrl, run, secondConnection, signal: controller.signal, log });
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
