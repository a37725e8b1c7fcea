/**
 * The parts of a bench's own local stack that the benches start alike: an embedded Postgres with the schema, a ledger
 * the simulated network wrote and the ingest put into it, and the Worker serving it as `npm start` does. What each
 * starts is stopped with the bench's `stops` (stopsOnSignal).
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { type LocalPostgres, startLocalPostgres } from '../../db/local/embedded-postgres.ts';
import { proxyTarget, type SqlProxy, startSqlProxy } from '../../db/local/sql-proxy.ts';
import { migrate } from '../../db/migrate.ts';
import { LEDGER_FILE } from '../../simulator/write/layout.ts';
import { ingestArgv } from './ingest-process.ts';
import { runNode } from './run-node.ts';
import { REPO_ROOT, startWorkerProcess, type WorkerProcess } from './worker-process.ts';

type Stops = (() => Promise<void>)[];

/** An embedded Postgres cluster in `dir` (kept: a second run reuses its data) with a migrated `bench` database. */
export async function startBenchDatabase(options: { dir: string; port: number; stops: Stops }): Promise<LocalPostgres> {
  const local = await startLocalPostgres({ dir: options.dir, port: options.port, database: 'bench' });
  options.stops.push(() => local.stop());
  await migrate(local.url);
  return local;
}

export interface SimulatedLedgerOptions {
  /** Where the streams (`dir/streams`) and the cluster (`dir/pg`) are kept between runs. */
  readonly dir: string;
  /** The simulator's options besides `--out`: files, rate, seed. */
  readonly simulation: readonly string[];
  readonly port: number;
  readonly stops: Stops;
  readonly log: (message: string) => void;
}

/**
 * A ledger of the simulated network in an embedded Postgres, made once: the first run writes the streams to
 * `dir/streams` and ingests them to the end; later runs find both and reuse them.
 */
export async function simulatedLedger(options: SimulatedLedgerOptions): Promise<LocalPostgres> {
  const streams = path.join(options.dir, 'streams');
  mkdirSync(options.dir, { recursive: true });
  if (!existsSync(path.join(streams, LEDGER_FILE))) {
    options.log('simulating the ledger (once)');
    await runNode([path.join(REPO_ROOT, 'simulator/main.ts'), '--out', streams, ...options.simulation, '--quiet']);
  }
  const local = await startBenchDatabase({
    dir: path.join(options.dir, 'pg'),
    port: options.port,
    stops: options.stops,
  });
  if (await isEmpty(local.url)) {
    options.log('ingesting the simulated streams (once)');
    await runNode(ingestArgv(streams, '--until-idle'), { DATABASE_URL: local.url });
  }
  return local;
}

async function isEmpty(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      'select count(*) as n from (select 1 from record_file limit 1) t',
    );
    return rows[0]?.n === '0';
  } finally {
    await client.end();
  }
}

export interface BenchWorkerOptions {
  readonly databaseUrl: string;
  /** The SQL proxy the Worker reaches the database through (its statement count is a bench's figure). */
  readonly proxy: SqlProxy;
  readonly port: number;
  /** The Worker's Durable Object and cache state goes to `outDir/wrangler-state`. */
  readonly outDir: string;
  readonly stops: Stops;
  /** More settings, over the defaults. */
  readonly vars?: Record<string, string>;
  readonly cacheApi?: boolean;
}

/** The Worker as `npm start` serves it, its log lines dropped and its rate limit off (a bench measures the rest). */
export async function startBenchWorker(options: BenchWorkerOptions): Promise<WorkerProcess> {
  const worker = await startWorkerProcess({
    port: options.port,
    vars: {
      DATABASE_URL: options.databaseUrl,
      DB_LOCAL_PROXY: options.proxy.address,
      HIERO_MIRROR_REST_EDGE_RATELIMIT_ENABLED: 'false',
      ...options.vars,
    },
    persistTo: path.join(options.outDir, 'wrangler-state'),
    ...(options.cacheApi === undefined ? {} : { cacheApi: options.cacheApi }),
    output: 'ignore',
  });
  options.stops.push(() => worker.stop());
  return worker;
}

/** The SQL proxy in front of `database` and the Worker behind it (startBenchWorker), both stopped with `stops`. */
export async function startBenchServer(options: {
  database: LocalPostgres;
  port: number;
  outDir: string;
  stops: Stops;
}): Promise<{ proxy: SqlProxy; worker: WorkerProcess }> {
  const { database, stops } = options;
  const proxy = await startSqlProxy({ port: 0, targets: [proxyTarget(database.url, database.socketDir)] });
  stops.push(() => proxy.close());
  const worker = await startBenchWorker({
    databaseUrl: database.url,
    proxy,
    port: options.port,
    outDir: options.outDir,
    stops,
  });
  return { proxy, worker };
}
