/**
 * `npm run bench:ingest`: the simulated network (simulator/, issue 8) writes signed v6 record files with the
 * benchmark's pinned mix (bench-ingest-mix.ts; BENCH_INGEST_FILES files at BENCH_INGEST_TPS, 10 × 2 s × 10,000/s
 * ≈ 200,000 transactions by default); they are ingested into a fresh embedded Postgres, and the run ends with
 * `ingest: <N> transactions/s` for the ingest alone (verification, decoding, rows, writes). The line before it gives
 * the CPU seconds the ingest process and Postgres spent per 100,000 transactions, and the load average: on
 * shared cores the rate moves with other work, CPU per transaction much less.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { answerHelp } from '../common/cli-help.ts';
import { startLocalPostgres } from '../db/local/embedded-postgres.ts';
import { migrate } from '../db/migrate.ts';
import { runIngest } from '../ingest/pipeline/run.ts';
import { DirStore } from '../ingest/sources/dir-store.ts';
import { RecordStreamSource } from '../ingest/sources/record-stream-source.ts';
import { parseOptions } from '../simulator/main.ts';
import { simulate } from '../simulator/run.ts';
import { ADDRESS_BOOK_FILE } from '../simulator/write/layout.ts';
import { BENCH_INGEST_MIX } from './bench-ingest-mix.ts';
import { freePort } from './local-stack/free-port.ts';
import { REPO_ROOT } from './local-stack/worker-process.ts';
import { loadAverage, ownCpuSeconds, postgresCpuSeconds } from './process-cpu.ts';

answerHelp(
  process.argv.slice(2),
  `usage: npm run bench:ingest\n\nThe simulated network writes about 200,000 transactions, ingested into a fresh embedded Postgres; ends with\ningest: N transactions/s. Environment: BENCH_INGEST_FILES (10), BENCH_INGEST_TPS (10000).`,
);

const FILES = process.env.BENCH_INGEST_FILES ?? '10';
const TPS = process.env.BENCH_INGEST_TPS ?? '10000';

const streams = await mkdtemp(path.join(tmpdir(), 'bench-ingest-'));
// The embedded server runs as its own user, which cannot enter mkdtemp's private folders.
const cluster = path.join(REPO_ROOT, '.data/bench-ingest', String(process.pid));
const postgres = await startLocalPostgres({ dir: cluster, port: await freePort(), database: 'bench' });
try {
  await migrate(postgres.url);
  const generatedAt = performance.now();
  const simulated = await simulate({
    ...parseOptions(['--out', streams, '--files', FILES, '--tps', TPS, '--seed', 'bench']),
    pinnedMix: BENCH_INGEST_MIX,
  });
  const generated = ((performance.now() - generatedAt) / 1000).toFixed(1);
  console.log(`simulated ${simulated.transactions} transactions in ${simulated.files} files (${generated} s)`);

  const client = new pg.Client({ connectionString: postgres.url });
  const secondClient = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  await secondClient.connect();
  try {
    const started = performance.now();
    const nodeCpu = ownCpuSeconds();
    const postgresCpu = postgresCpuSeconds(cluster);
    const summary = await runIngest({
      source: new RecordStreamSource(new DirStore(streams)),
      client,
      secondClient,
      bootstrapAddressBook: new Uint8Array(await readFile(path.join(streams, ADDRESS_BOOK_FILE))),
      untilIdle: true,
      log: (line) => {
        if (line.msg !== 'record file ingested') console.log(JSON.stringify(line));
      },
    });
    const seconds = (performance.now() - started) / 1000;
    const nodeUsed = ownCpuSeconds() - nodeCpu;
    const postgresEnd = postgresCpuSeconds(cluster);
    const postgresUsed = postgresCpu !== undefined && postgresEnd !== undefined ? postgresEnd - postgresCpu : undefined;
    const per100k = (cpu: number) => ((cpu * 100_000) / Math.max(summary.transactions, 1)).toFixed(2);
    console.log(
      `cpu per 100,000 transactions: ingest ${per100k(nodeUsed)} s` +
        (postgresUsed === undefined
          ? ''
          : `, postgres ${per100k(postgresUsed)} s, total ${per100k(nodeUsed + postgresUsed)} s`) +
        `; load average ${loadAverage()}`,
    );
    console.log(`ingested ${summary.transactions} transactions in ${summary.files} files in ${seconds.toFixed(1)} s`);
    console.log(`ingest: ${Math.round(summary.transactions / seconds)} transactions/s`);
  } finally {
    await client.end();
    await secondClient.end();
  }
} finally {
  await postgres.stop();
  await rm(streams, { recursive: true, force: true });
  await rm(cluster, { recursive: true, force: true });
}
