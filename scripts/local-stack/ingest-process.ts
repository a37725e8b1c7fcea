/**
 * The ingest service as a child process of `npm start`: `node ingest/main.ts` on the same database, fed by
 * INGEST_SOURCE (a directory or an s3:// / gs:// bucket; INGEST_NETWORK and INGEST_ADDRESS_BOOK as for
 * `npm run ingest`). Its log lines pass through; stopping sends SIGTERM, which it honours between files.
 * An ingest that exits by itself is started again: it resumes from its cursor; one that exits 2 (a setting it
 * cannot use, which it has said in one line) is not.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ADDRESS_BOOK_FILE } from '../../simulator/write/layout.ts';
import { stopChild } from './stop-child.ts';
import { REPO_ROOT } from './worker-process.ts';

/**
 * The ingest's command line on the streams a simulated network writes to `streams`, with the address book it writes
 * beside them, and `more` arguments.
 */
export function ingestArgv(streams: string, ...more: string[]): string[] {
  return [
    path.join(REPO_ROOT, 'ingest/main.ts'),
    '--source',
    streams,
    '--address-book',
    path.join(streams, ADDRESS_BOOK_FILE),
    ...more,
  ];
}

export interface IngestProcess {
  /** Times the ingest was started again after it exited by itself. */
  readonly restarts: number;
  stop(): Promise<void>;
}

export interface IngestProcessOptions {
  source: string;
  databaseUrl: string;
  log: (fields: Record<string, unknown>) => void;
  /** The command; `ingest/main.ts --source <source>` when absent. */
  argv?: string[];
  /** First wait before a restart; doubled after each exit in a row, up to `maxWaitMs`. */
  initialWaitMs?: number;
  maxWaitMs?: number;
  /** Called when the ingest exits 2: a setting it cannot use, which no restart would change. */
  onRefused?: () => void;
}

/**
 * Starts the ingest and keeps it running: after it exits (an error it does not wait out, a crash, a kill), the
 * exit is logged with the wait, and it starts again. A run that lasted longer than the longest wait starts the
 * backoff over. `stop()` ends it for good.
 */
export function startIngestProcess(options: IngestProcessOptions): IngestProcess {
  const initialWaitMs = options.initialWaitMs ?? 1_000;
  const maxWaitMs = options.maxWaitMs ?? 30_000;
  const argv = options.argv ?? [path.join(REPO_ROOT, 'ingest/main.ts'), '--source', options.source];
  let stopping = false;
  let restarts = 0;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  let current: ReturnType<typeof spawn> | undefined;
  const start = () => {
    const started = Date.now();
    const child = spawn(process.execPath, argv, {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: options.databaseUrl },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    current = child;
    child.once('exit', (code, signal) => {
      if (stopping) return;
      if (code === 2) {
        options.onRefused?.();
        return;
      }
      if (Date.now() - started > maxWaitMs) failures = 0;
      const waitMs = Math.min(maxWaitMs, initialWaitMs * 2 ** failures);
      failures++;
      options.log({ msg: 'the ingest exited: restarting it', level: 'warn', code, signal, waitMs });
      timer = setTimeout(() => {
        restarts++;
        start();
      }, waitMs);
    });
  };
  start();
  return {
    get restarts() {
      return restarts;
    },
    async stop() {
      stopping = true;
      clearTimeout(timer);
      if (current) await stopChild(current);
    },
  };
}
