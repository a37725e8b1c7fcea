import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { startLocalPostgres } from '../../db/local/embedded-postgres.ts';
import { migrate } from '../../db/migrate.ts';
import { upstreamSharedDir } from '../../test/harness/shared-dir.ts';
import { freePort } from './free-port.ts';
import { REPO_ROOT } from './worker-process.ts';

/** The perf kit (dataset generator, urls.json, bench.mjs): the shared folder's; the repository does not carry it. */
export const PERF_DIR = path.join(upstreamSharedDir(), 'perf');

const missingKit = () =>
  `the perf kit is not at ${PERF_DIR}: the repository does not carry it (put the project's shared folder beside ` +
  'the repository, or set EDGE_MIRROR_SHARED to it)';

/** Ends a benchmark that reads the perf kit with one line when the kit is not there, before it starts anything. */
export function requirePerfKit(tool: string): void {
  if (existsSync(PERF_DIR)) return;
  console.error(`${tool}: ${missingKit()}`);
  process.exit(2);
}

export interface PerfDatabase {
  readonly url: string;
  /** The embedded server's socket directory, for the SQL proxy; absent with DATABASE_URL. */
  readonly socketDir: string | undefined;
  stop(): Promise<void>;
}

/**
 * The database of the perf kit: DATABASE_URL when set, otherwise an embedded Postgres under .data/bench-pg, on
 * `port` when given (so that another server, the reference, can be pointed at it beforehand), else a free one.
 * It is migrated, and loaded with gen-dataset.mjs (scale 1, seed 42: the dataset urls.json and
 * reference-bodies/ were made on) unless it already holds transactions.
 */
export async function openPerfDatabase(log: (message: string) => void, port?: number): Promise<PerfDatabase> {
  let database: PerfDatabase;
  const external = process.env.DATABASE_URL;
  if (external) {
    database = { url: external, socketDir: undefined, stop: async () => {} };
  } else {
    const local = await startLocalPostgres({
      dir: path.join(REPO_ROOT, '.data/bench-pg'),
      port: port ?? (await freePort()),
      database: 'perf',
    });
    log(`perf database: ${local.url.replace(/:[^:@/]*@/, ':***@')}`);
    database = { url: local.url, socketDir: local.socketDir, stop: () => local.stop() };
  }
  try {
    await migrate(database.url);
    await loadDatasetOnce(database.url, log);
    return database;
  } catch (error) {
    await database.stop();
    throw error;
  }
}

async function loadDatasetOnce(url: string, log: (message: string) => void): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const present = await client
    .query<{ n: string }>('select count(*) as n from (select 1 from transaction limit 1) t')
    .then(({ rows }) => rows[0]?.n !== '0')
    .finally(() => client.end());
  if (present) {
    log('dataset present: reusing it');
    return;
  }
  if (!process.env.PATH?.split(':').some((dir) => existsSync(path.join(dir, 'psql')))) {
    throw new Error('gen-dataset.mjs needs psql on PATH (Debian: apt-get install postgresql-client)');
  }
  if (!existsSync(PERF_DIR)) throw new Error(`the perf dataset is not loaded and ${missingKit()}`);
  log('loading the perf dataset (scale 1, seed 42): about a minute');
  await runNode([path.join(PERF_DIR, 'gen-dataset.mjs'), '--db', url, '--scale', '1', '--seed', '42']);
}

export function runNode(argv: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { cwd: REPO_ROOT, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${argv[0]} exited with ${code}`))));
  });
}

/**
 * The perf kit's bench.mjs over the URLs in `urlsFile` against `base` (and, side by side, `vs`: URL by URL, the
 * order flipped on every other URL), with `accept-encoding: encoding` (gzip unless given), its figures written to
 * `report` as JSON.
 */
export function runPerfBench(options: {
  base: string;
  vs?: string;
  urlsFile: string;
  duration: string;
  connections: string;
  report: string;
  encoding?: 'gzip' | 'identity';
}): Promise<void> {
  const { base, vs, urlsFile, duration, connections, report, encoding } = options;
  return runNode([
    path.join(PERF_DIR, 'bench.mjs'),
    '--base',
    base,
    ...(vs ? ['--vs', vs] : []),
    '--urls',
    urlsFile,
    '--duration',
    duration,
    '--connections',
    connections,
    '--encoding',
    encoding ?? 'gzip',
    '--json',
    report,
  ]);
}

/**
 * Ends a benchmark with one line when the server it is to be compared with does not answer `probe` (a path of the
 * perf URLs) with a 200, before it starts anything: a side-by-side run against nothing measures nothing.
 */
export async function requireServer(tool: string, base: string, probe: string): Promise<void> {
  const answer = await fetch(new URL(probe, base)).then(
    (response) => `${response.status}`,
    (error: unknown) =>
      error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error),
  );
  if (answer === '200') return;
  console.error(
    `${tool}: --vs ${base} did not answer ${probe} with 200 (${answer}): start the reference first (docs/performance.md, "How to measure")`,
  );
  process.exit(2);
}
