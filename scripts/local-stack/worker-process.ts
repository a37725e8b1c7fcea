import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface WorkerProcess {
  readonly baseUrl: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

export interface WorkerProcessOptions {
  /** Entry module relative to the repo root; defaults to wrangler.toml's `main`. */
  entry?: string;
  port: number;
  vars: Record<string, string>;
  /** Where local Durable Object and cache state lives; wrangler's default (.wrangler/state) when absent. */
  persistTo?: string;
  /** Where wrangler's own output goes; inherited when absent. */
  output?: 'inherit' | 'ignore';
}

/**
 * Runs the Worker in its real runtime (workerd, through `wrangler dev`, all local) and waits until it answers.
 * The process gets its own process group so that stopping it also ends workerd.
 */
export async function startWorkerProcess(options: WorkerProcessOptions): Promise<WorkerProcess> {
  const args = [
    path.join(REPO_ROOT, 'node_modules/wrangler/bin/wrangler.js'),
    'dev',
    ...(options.entry ? [options.entry] : []),
    '--ip',
    '127.0.0.1',
    '--port',
    String(options.port),
    '--show-interactive-dev-session=false',
    '--log-level',
    'warn',
    ...(options.persistTo ? ['--persist-to', options.persistTo] : []),
  ];
  for (const [key, value] of Object.entries(options.vars)) args.push('--var', `${key}:${value}`);
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ['ignore', options.output ?? 'inherit', options.output ?? 'inherit'],
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: 'false',
      // The Request.cf placeholder is enough locally; fetching the real one needs the internet.
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      WRANGLER_LOG_PATH: path.join(REPO_ROOT, '.wrangler/logs'),
    },
  });
  const baseUrl = `http://127.0.0.1:${options.port}`;
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`wrangler dev exited early with code ${code}`))),
  );
  exited.catch(() => {});
  await Promise.race([waitForHttp(`${baseUrl}/health/liveness`, 120_000), exited]);
  return {
    baseUrl,
    child,
    stop: () => stopProcessGroup(child),
  };
}

async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** SIGTERM to the child's process group, SIGKILL after five seconds if it is still there. */
export function stopProcessGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  const pid = child.pid;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {}
    }, 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      clearTimeout(timer);
      resolve();
    }
  });
}
