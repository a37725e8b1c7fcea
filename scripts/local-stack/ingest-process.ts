/**
 * The ingest service as a child process of `npm start`: `node ingest/main.ts` on the same database, fed by
 * INGEST_SOURCE (a directory or an s3:// / gs:// bucket; INGEST_NETWORK and INGEST_ADDRESS_BOOK as for
 * `npm run ingest`). Its log lines pass through; stopping sends SIGTERM, which it honours between files.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { stopChild } from './stop-child.ts';
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
  return {
    child,
    stop: () => stopChild(child),
  };
}
