/** The ingest CLI as a child process over a simulated stream, with its JSON log lines collected. */
import { type ChildProcess, spawn } from 'node:child_process';
import { ingestArgv } from '../local-stack/ingest-process.ts';
import { REPO_ROOT } from '../local-stack/worker-process.ts';

export interface IngestChild {
  readonly child: ChildProcess;
  readonly lines: Record<string, unknown>[];
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
}

/** `npm run ingest -- --source <streams> --address-book <streams>/address-book.bin --until-idle` on `databaseUrl`. */
export function spawnIngest(
  streams: string,
  databaseUrl: string,
  onLine?: (line: Record<string, unknown>) => void,
): IngestChild {
  const child = spawn(process.execPath, ingestArgv(streams, '--until-idle'), {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  let buffered = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const part of parts) {
      if (!part.startsWith('{')) continue;
      const line = JSON.parse(part) as Record<string, unknown>;
      lines.push(line);
      onLine?.(line);
    }
  });
  child.stderr?.resume();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, lines, exited };
}
