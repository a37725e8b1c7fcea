/**
 * The ingest service as a child process of `npm start`: `node ingest/main.ts` on the same database, fed by
 * INGEST_SOURCE (a directory or an s3:// / gs:// bucket; INGEST_NETWORK and INGEST_ADDRESS_BOOK as for
 * `npm run ingest`). Its log lines pass through; stopping sends SIGTERM, which it honours between files.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './worker-process.ts';

export interface IngestProcess {
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

export function startIngestProcess(options: { source: string; databaseUrl: string }): IngestProcess {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'ingest/main.ts'), '--source', options.source], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: options.databaseUrl },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timeout = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timeout);
    },
  };
}
