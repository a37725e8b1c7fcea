/**
 * `npm run bench:ingest`: generates signed v6 record files of CryptoTransfers (BENCH_INGEST_FILES files of
 * BENCH_INGEST_TRANSACTIONS each, 20 × 10,000 by default), ingests them into a fresh embedded Postgres and
 * ends with `ingest: <N> transactions/s` (the ingest only: verification, decoding, rows, writes).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startLocalPostgres } from '../db/local/embedded-postgres.ts';
import { migrate } from '../db/migrate.ts';
import { runIngest } from '../ingest/pipeline/run.ts';
import { DirStore } from '../ingest/sources/dir-store.ts';
import { RecordStreamSource } from '../ingest/sources/record-stream-source.ts';
import {
  addressBookBytes,
  cryptoTransferItem,
  generateNodes,
  writeRecordFile,
} from '../ingest/testing/stream-writer.ts';
import { freePort } from './local-stack/free-port.ts';
import { REPO_ROOT } from './local-stack/worker-process.ts';

const FILES = Number(process.env.BENCH_INGEST_FILES ?? 20);
const PER_FILE = Number(process.env.BENCH_INGEST_TRANSACTIONS ?? 10_000);
const ACCOUNTS = 10_000;

const work = await mkdtemp(path.join(tmpdir(), 'bench-ingest-'));
// The embedded server runs as its own user, which cannot enter mkdtemp's private folders.
const cluster = path.join(REPO_ROOT, '.data/bench-ingest', String(process.pid));
const postgres = await startLocalPostgres({ dir: cluster, port: await freePort(), database: 'bench' });
try {
  await migrate(postgres.url);
  const nodes = generateNodes(4);
  const streams = path.join(work, 'streams');
  let previous: Uint8Array = new Uint8Array(48);
  let consensus = 1_700_000_000_000_000_000n;
  const generatedAt = performance.now();
  for (let f = 0; f < FILES; f++) {
    const start = consensus;
    const items = [];
    for (let i = 0; i < PER_FILE; i++) {
      const payer = 1001 + ((f * PER_FILE + i) % ACCOUNTS);
      const receiver = 1001 + ((f * PER_FILE + i * 7 + 1) % ACCOUNTS);
      items.push(cryptoTransferItem(consensus, payer, receiver, 100 + i, 50_000));
      consensus += 1_000n;
    }
    previous = (await writeRecordFile(streams, nodes, items, start, previous, BigInt(f))).hash;
    consensus += 2_000_000_000n;
  }
  console.log(
    `generated ${FILES} files × ${PER_FILE} transactions in ${((performance.now() - generatedAt) / 1000).toFixed(1)} s`,
  );

  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  try {
    const started = performance.now();
    const summary = await runIngest({
      source: new RecordStreamSource(new DirStore(streams)),
      client,
      bootstrapAddressBook: addressBookBytes(nodes),
      untilIdle: true,
      log: (line) => {
        if (line.msg !== 'record file ingested') console.log(JSON.stringify(line));
      },
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(`ingested ${summary.transactions} transactions in ${summary.files} files in ${seconds.toFixed(1)} s`);
    console.log(`ingest: ${Math.round(summary.transactions / seconds)} transactions/s`);
  } finally {
    await client.end();
  }
} finally {
  await postgres.stop();
  await rm(work, { recursive: true, force: true });
  await rm(cluster, { recursive: true, force: true });
}
