import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Milliseconds a local request line may wait for the lines after it (`edge.log.batch`). */
const LOCAL_LOG_BATCH_MS = '50';

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
  // The bundle and whatever wrangler puts in the temp directory while it builds (its update check's cache) live in
  // one folder, removed when the Worker stops, when it fails to start, and when the process exits without stopping
  // it: a run leaves nothing in the temp directory.
  const buildDir = await mkdtemp(path.join(tmpdir(), 'edge-mirror-build-'));
  const removeBuild = () => rmSync(buildDir, { recursive: true, force: true });
  process.once('exit', removeBuild);
  const stopped = async () => {
    process.removeListener('exit', removeBuild);
    await rm(buildDir, { recursive: true, force: true });
  };
  try {
    const entry = options.entry ?? 'workers/index.ts';
    const bundleDir = path.join(buildDir, 'bundle');
    const wranglerTmp = path.join(buildDir, 'tmp');
    await mkdir(wranglerTmp);
    await runWrangler(['deploy', '--dry-run', '--outdir', bundleDir, entry], { TMPDIR: wranglerTmp });
    const { workerOptions } = unstable_getMiniflareWorkerOptions(path.join(REPO_ROOT, 'wrangler.toml'));
    const persist = options.persistTo ?? path.join(REPO_ROOT, '.wrangler/state/v3');
    const bundle = `${path.basename(entry, path.extname(entry))}.js`;
    const mf = keepingSignalHandlers(
      () =>
        new Miniflare({
          ...workerOptions,
          name: 'edge-mirror',
          modules: true,
          modulesRoot: bundleDir,
          scriptPath: path.join(bundleDir, bundle),
          // Request lines are written in batches locally, where each console call is a write to the pipe that wakes
          // this process (docs/adr/0055); a caller's vars may still set it.
          bindings: {
            ...workerOptions.bindings,
            HIERO_MIRROR_REST_EDGE_LOG_BATCH: LOCAL_LOG_BATCH_MS,
            ...options.vars,
          },
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
              for (const stream of [stdout, stderr])
                stream.on('data', (chunk: Buffer) => output(chunk.toString('utf8')));
            } else {
              stdout.pipe(process.stdout);
              stderr.pipe(process.stderr);
            }
          },
        }),
    );
    await mf.ready;
    return {
      baseUrl: `http://127.0.0.1:${options.port}`,
      async stop() {
        await mf.dispose();
        await stopped();
      },
    };
  } catch (error) {
    await stopped();
    throw error;
  }
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Runs `create` (Miniflare's constructor) and takes back the signals it hooks where the process already handles
 * them. Miniflare's hook exits the process at once on SIGINT or SIGTERM, cutting short the shutdown of a script that
 * stops what it started itself (`npm start`, the benches): the Worker among them, with its build folder. Its hook on
 * `exit`, which ends workerd whatever happens, stays; a process without its own handler keeps Miniflare's.
 */
function keepingSignalHandlers<T>(create: () => T): T {
  const before = new Map(SIGNALS.map((signal) => [signal, process.listeners(signal)]));
  const created = create();
  for (const signal of SIGNALS) {
    const own = before.get(signal) ?? [];
    if (own.length === 0) continue;
    for (const listener of process.listeners(signal)) {
      if (!own.includes(listener)) process.removeListener(signal, listener);
    }
  }
  return created;
}

/**
 * Runs wrangler's CLI from node_modules in the repo root, with `env` added to its environment; rejects with its
 * whole output when it fails.
 */
export function runWrangler(args: string[], env: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'node_modules/wrangler/bin/wrangler.js'), ...args], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: 'false',
        WRANGLER_LOG_PATH: path.join(REPO_ROOT, '.wrangler/logs'),
        ...env,
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
