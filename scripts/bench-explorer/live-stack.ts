/**
 * The stack `npm start` runs, on a directory of its own: embedded Postgres, the SQL proxy (here in this process, so
 * its statement count can be read), the simulated network writing a record file every 2 s and the ingest following
 * it, and Workers in workerd with `npm start`'s settings (edge cache as the memory tier alone, rate limit on).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { startLocalPostgres } from '../../db/local/embedded-postgres.ts';
import { proxyTarget, type SqlProxy, startSqlProxy } from '../../db/local/sql-proxy.ts';
import { migrate } from '../../db/migrate.ts';
import { databaseId } from '../local-stack/database-id.ts';
import { freePort } from '../local-stack/free-port.ts';
import { startSimulatorProcess } from '../local-stack/simulator-process.ts';
import { stopChild } from '../local-stack/stop-child.ts';
import { REPO_ROOT, startWorkerProcess, type WorkerProcess } from '../local-stack/worker-process.ts';

export interface LiveStack {
  readonly databaseUrl: string;
  readonly proxy: SqlProxy;
  /**
   * A Worker on the stack, as `npm start` serves it: a location whose edge cache starts empty. `output` gets its
   * log (its request lines among it).
   */
  startWorker(output: (text: string) => void): Promise<WorkerProcess>;
}

/** The EVM network `npm start` gives a simulated network (scripts/local-stack/evm-network.ts). */
const SIMULATED_EVM_NETWORK = 'OTHER';

/** Starts the stack in `dir` (emptied first) but its Workers; every part is pushed on `stops`. */
export async function startLiveStack(dir: string, stops: (() => Promise<void>)[]): Promise<LiveStack> {
  rmSync(dir, { recursive: true, force: true });
  const database = await startLocalPostgres({
    dir: path.join(dir, 'pg'),
    port: await freePort(),
    database: 'mirror_node',
  });
  stops.push(() => database.stop());
  await migrate(database.url);
  const proxy = await startSqlProxy({ port: 0, targets: [proxyTarget(database.url, database.socketDir)] });
  stops.push(() => proxy.close());
  const vars = {
    DATABASE_URL: database.url,
    DATABASE_ID: await databaseId(database.url),
    DB_LOCAL_PROXY: proxy.address,
    HIERO_MIRROR_WEB3_OPCODE_TRACER_ENABLED: 'true',
    HIERO_MIRROR_WEB3_EVM_NETWORK: SIMULATED_EVM_NETWORK,
  };
  let workers = 0;
  const startWorker = async (output: (text: string) => void) => {
    const worker = await startWorkerProcess({
      port: await freePort(),
      cacheApi: false,
      vars,
      persistTo: path.join(dir, `wrangler-state-${workers++}`),
      output,
    });
    let stopped: Promise<void> | undefined;
    const stop = () => {
      stopped ??= worker.stop();
      return stopped;
    };
    stops.push(stop);
    return { baseUrl: worker.baseUrl, stop };
  };
  process.env.HIERO_MIRROR_WEB3_EVM_NETWORK = SIMULATED_EVM_NETWORK;
  const simulator = await startSimulatorProcess({ out: path.join(dir, 'simnet'), output: 'ignore' });
  stops.push(() => simulator.stop());
  const ingest = followSimulator(simulator.out, simulator.addressBook, database.url);
  stops.push(() => stopChild(ingest));
  return { databaseUrl: database.url, proxy, startWorker };
}

/** The ingest polling the simulator's directory, its log lines discarded. */
function followSimulator(source: string, addressBook: string, databaseUrl: string): ChildProcess {
  return spawn(
    process.execPath,
    [
      '--max-semi-space-size=64',
      path.join(REPO_ROOT, 'ingest/main.ts'),
      '--source',
      source,
      '--address-book',
      addressBook,
    ],
    { cwd: REPO_ROOT, stdio: 'ignore', env: { ...process.env, DATABASE_URL: databaseUrl } },
  );
}
