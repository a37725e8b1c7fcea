/**
 * `npm start`: the whole local mirror. An embedded PostgreSQL under .data/pg (kept across restarts) unless
 * DATABASE_URL names another; migrations; the SQL-over-HTTP proxy the Worker's database driver goes through; the
 * Worker in workerd (Miniflare, docs/adr/0005 and 0007) on http://localhost:8787; with INGEST_SOURCE set, the
 * ingest service filling that database from the source (started again whenever it exits); without it, on the embedded database, a simulated network (`.data/simnet`, a file
 * every 2 s) that the ingest follows (SIMULATE=0 turns it off). Ctrl-C (or SIGTERM) stops everything it started.
 */
import path from 'node:path';
import { startLocalPostgres } from '../db/local/embedded-postgres.ts';
import { proxyTarget, startSqlProxy } from '../db/local/sql-proxy.ts';
import { migrate } from '../db/migrate.ts';
import { databaseId } from './local-stack/database-id.ts';
import { localEvmNetwork } from './local-stack/evm-network.ts';
import { freePort, isPortFree } from './local-stack/free-port.ts';
import { startIngestProcess } from './local-stack/ingest-process.ts';
import { startSimulatorProcess } from './local-stack/simulator-process.ts';
import { REPO_ROOT, startWorkerProcess } from './local-stack/worker-process.ts';

const API_PORT = Number(process.env.PORT ?? 8787);
/** Milliseconds added to every round trip to the database: the local mirror as a Worker far from it would be. */
const DB_DELAY_MS = Number(process.env.DB_DELAY_MS || 0);
if (!(DB_DELAY_MS >= 0)) {
  console.error(`DB_DELAY_MS must be a number of milliseconds, not ${process.env.DB_DELAY_MS}`);
  process.exit(2);
}
const LOCAL_DB_PORT = 54320;

const log = (fields: Record<string, unknown>) => console.log(JSON.stringify({ service: 'start', ...fields }));

const stops: (() => Promise<void>)[] = [];
let stopping = false;
async function stopAll(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    for (const stop of stops.reverse()) await stop().catch(() => {});
  }
  process.exit(code);
}
// embedded-postgres installs signal hooks that stop its servers and exit half-way through our own shutdown: this
// process owns its signals and stops everything it started itself, in order.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.removeAllListeners(signal);
  process.on(signal, () => void stopAll(0));
}

try {
  if (!(await isPortFree(API_PORT))) throw new Error(`port ${API_PORT} is in use: set PORT to another one`);

  let databaseUrl = process.env.DATABASE_URL;
  const embedded = !databaseUrl;
  let socketDir: string | undefined;
  if (!databaseUrl) {
    const port = (await isPortFree(LOCAL_DB_PORT)) ? LOCAL_DB_PORT : await freePort();
    const local = await startLocalPostgres({ dir: path.join(REPO_ROOT, '.data/pg'), port, database: 'mirror_node' });
    stops.push(() => local.stop());
    databaseUrl = local.url;
    socketDir = local.socketDir;
    log({ msg: 'embedded PostgreSQL started', dataDir: '.data/pg', port });
  }
  await migrate(databaseUrl);
  log({ msg: 'migrations applied' });

  const target = new URL(databaseUrl);
  const isLocal = ['127.0.0.1', 'localhost', '::1'].includes(target.hostname);
  let localProxy: string | undefined;
  if (isLocal) {
    // Neon endpoints serve SQL over HTTP themselves; a plain Postgres needs the local proxy.
    const proxy = await startSqlProxy({
      port: 0,
      targets: [proxyTarget(databaseUrl, socketDir)],
      delayMs: DB_DELAY_MS,
    });
    stops.push(() => proxy.close());
    localProxy = proxy.address;
  }

  // The demo source: only for the embedded database, never one DATABASE_URL names.
  const simulate = !process.env.INGEST_SOURCE && embedded && process.env.SIMULATE !== '0';
  const evmNetwork = localEvmNetwork(process.env, simulate);
  // The simulator child inherits it, so both sign and check for one chain.
  if (evmNetwork) process.env.HIERO_MIRROR_WEB3_EVM_NETWORK = evmNetwork;
  const worker = await startWorkerProcess({
    port: API_PORT,
    cacheApi: false,
    vars: {
      DATABASE_URL: databaseUrl,
      DATABASE_ID: await databaseId(databaseUrl),
      ...(localProxy ? { DB_LOCAL_PROXY: localProxy } : {}),
      // Off by default as in the reference; the local mirror is where traces are wanted.
      HIERO_MIRROR_WEB3_OPCODE_TRACER_ENABLED: 'true',
      ...(evmNetwork ? { HIERO_MIRROR_WEB3_EVM_NETWORK: evmNetwork } : {}),
    },
  });
  stops.push(() => worker.stop());

  let ingestSource = process.env.INGEST_SOURCE;
  if (simulate) {
    const simulator = await startSimulatorProcess({ out: path.join(REPO_ROOT, '.data/simnet') });
    stops.push(() => simulator.stop());
    ingestSource = simulator.out;
    process.env.INGEST_ADDRESS_BOOK = simulator.addressBook;
    log({ msg: 'simulated network started', dir: '.data/simnet' });
  }
  if (ingestSource) {
    const ingest = startIngestProcess({ source: ingestSource, databaseUrl, log });
    stops.push(() => ingest.stop());
    log({ msg: 'ingest started', source: ingestSource });
  }

  const shown = new URL(databaseUrl);
  shown.password = shown.password ? '***' : '';
  console.log(`\nedge-mirror is up: API http://localhost:${API_PORT}/api/v1 · database ${shown} · Ctrl-C stops\n`);
} catch (error) {
  console.error(`start failed: ${error instanceof Error ? error.message : String(error)}`);
  await stopAll(1);
}
