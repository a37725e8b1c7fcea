/** Paths of the shared stream fixtures and a helper that ingests a fixture directory into a database. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { sharedDir } from '../../test/harness/shared-dir.ts';
import { type IngestOptions, type IngestSummary, runIngest } from '../pipeline/run.ts';
import { DirStore } from '../sources/dir-store.ts';
import type { ObjectStore } from '../sources/object-store.ts';
import { RecordStreamSource } from '../sources/record-stream-source.ts';

export const STREAMS = path.join(sharedDir(), 'fixtures/streams');
export const RECORDSTREAMS = path.join(STREAMS, 'data/recordstreams');

export function addressBook(name: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(STREAMS, 'addressbook', name)));
}

/** The book that verifies each record stream fixture folder (MANIFEST.md). */
export const BOOK_FOR: Readonly<Record<string, string>> = {
  v1: 'test-v1',
  v2: 'testnet',
  v5: 'testnet',
  v6: 'test-v6-sidecar-4n.bin',
};

export interface IngestRun extends IngestSummary {
  readonly logs: Record<string, unknown>[];
}

/**
 * Runs the ingest until idle over `store` against `databaseUrl`, collecting its log lines. Without a client in
 * `extra` it connects two, as `npm run ingest` does.
 */
export async function ingestStore(
  databaseUrl: string,
  store: ObjectStore,
  book: string,
  extra: Partial<IngestOptions> = {},
): Promise<IngestRun> {
  const own = extra.client
    ? []
    : [new pg.Client({ connectionString: databaseUrl }), new pg.Client({ connectionString: databaseUrl })];
  for (const client of own) await client.connect();
  const logs: Record<string, unknown>[] = [];
  try {
    const summary = await runIngest({
      source: new RecordStreamSource(store),
      client: extra.client ?? (own[0] as pg.Client),
      ...(own[1] ? { secondClient: own[1] } : {}),
      ...(book ? { bootstrapAddressBook: addressBook(book) } : {}),
      untilIdle: true,
      log: (line) => logs.push(line),
      ...extra,
    });
    return { ...summary, logs };
  } finally {
    for (const client of own) await client.end();
  }
}

export function ingestFixture(databaseUrl: string, folder: string, extra: Partial<IngestOptions> = {}) {
  const book = BOOK_FOR[folder];
  if (!book) throw new Error(`no address book for ${folder}`);
  return ingestStore(databaseUrl, new DirStore(path.join(RECORDSTREAMS, folder)), book, extra);
}
