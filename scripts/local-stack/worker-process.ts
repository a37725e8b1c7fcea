import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface WorkerProcess {
  readonly baseUrl: string;
  stop(): Promise<void>;
}

export interface WorkerProcessOptions {
  /** Entry module relative to the repo root; defaults to wrangler.toml's `main`. */
  entry?: string;
  port: number;
  vars: Record<string, string>;
  /** Where local Durable Object and cache state lives; kept in .wrangler/state when absent. */
  persistTo?: string;
  /** Where the Worker's log lines go: inherited when absent, or handed to a function as they arrive. */
  output?: 'inherit' | 'ignore' | ((text: string) => void);
  /**
   * False: `caches.default` stores nothing, so the edge cache is the Worker's memory tier alone, whose size is a
   * setting. The local Cache API has no size cap: a long-running local stack's store grows with every distinct URL.
   */
  cacheApi?: boolean;
}

/**
 * Runs the Worker in its real runtime, workerd, the way it is deployed: wrangler bundles it exactly as
 * `wrangler deploy` would (`--dry-run`), and Miniflare (wrangler's own local engine) serves that bundle with the
 * bindings of wrangler.toml. Unlike `wrangler dev`, no live-reload proxy sits in front of it: that proxy funnels
 * every request through one Durable Object and capped local throughput at a few hundred requests a second
 * (docs/adr/0005-local-runtime.md). Requests reach the Worker on a direct socket, not through Miniflare's entry
 * worker, and nothing stands where Cloudflare's front line would compress responses (docs/adr/0007).
 */
export async function startWorkerProcess(options: WorkerProcessOptions): Promise<WorkerProcess> {
  const buildDir = await mkdtemp(path.join(tmpdir(), 'edge-mirror-build-'));
  try {
    const entry = options.entry ?? 'workers/index.ts';
    await runWrangler(['deploy', '--dry-run', '--outdir', buildDir, entry]);
    const { workerOptions } = unstable_getMiniflareWorkerOptions(path.join(REPO_ROOT, 'wrangler.toml'));
    const persist = options.persistTo ?? path.join(REPO_ROOT, '.wrangler/state/v3');
    const bundle = `${path.basename(entry, path.extname(entry))}.js`;
    const mf = new Miniflare({
      ...workerOptions,
      name: 'edge-mirror',
      modules: true,
      modulesRoot: buildDir,
      scriptPath: path.join(buildDir, bundle),
      bindings: { ...workerOptions.bindings, ...options.vars },
      // Miniflare's own entry socket (a port nobody uses) fronts the Worker with its entry worker; the socket we
      // serve on reaches the Worker directly, and its fetches go straight to the network (docs/adr/0007).
      host: '127.0.0.1',
      port: 0,
      unsafeDirectSockets: [{ host: '127.0.0.1', port: options.port }],
      stripCfConnectingIp: false,
      // The Request.cf placeholder is enough locally; fetching the real one needs the internet.
      cf: false,
      cache: options.cacheApi ?? true,
      cachePersist: path.join(persist, 'cache'),
      durableObjectsPersist: path.join(persist, 'do'),
      handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
        const output = options.output;
        if (output === 'ignore') {
          stdout.resume();
          stderr.resume();
        } else if (typeof output === 'function') {
          for (const stream of [stdout, stderr]) stream.on('data', (chunk: Buffer) => output(chunk.toString('utf8')));
        } else {
          stdout.pipe(process.stdout);
          stderr.pipe(process.stderr);
        }
      },
    });
    await mf.ready;
    return {
      baseUrl: `http://127.0.0.1:${options.port}`,
      async stop() {
        await mf.dispose();
        await rm(buildDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(buildDir, { recursive: true, force: true });
    throw error;
  }
}

/** Runs wrangler's CLI from node_modules in the repo root; rejects with its whole output when it fails. */
export function runWrangler(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'node_modules/wrangler/bin/wrangler.js'), ...args], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: 'false',
        WRANGLER_LOG_PATH: path.join(REPO_ROOT, '.wrangler/logs'),
      },
    });
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`wrangler ${args.join(' ')} failed:\n${output}`)),
    );
  });
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
