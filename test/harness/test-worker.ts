import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { proxyTarget, startSqlProxy } from '../../db/local/sql-proxy.ts';
import { freePort } from '../../scripts/local-stack/free-port.ts';
import { startWorkerProcess } from '../../scripts/local-stack/worker-process.ts';

export interface TestWorker {
  readonly baseUrl: string;
  /** What the Worker has logged so far, when started with `captureLog` (empty otherwise). */
  readonly log: string;
  /** Statements the Worker has run so far: a request answered from the edge cache runs none. */
  readonly dbQueries: number;
  /** Round trips to the database waited for in turn so far (overlapping ones count once: sql-proxy.ts). */
  readonly dbSequentialRoundTrips: number;
  /** GET `path` (starting with `/`), with the body parsed when it is JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies of every shape; assertions check them.
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: any }>;
  /** Settings overrides (the reference's tree) and fake clock for the requests that follow. */
  setState(state: { config?: unknown; fakeTime?: string }): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The Worker in its real runtime (workerd through Miniflare, as `npm start` serves it; test entry) reading the
 * database at `databaseUrl` through the same SQL-over-HTTP proxy `npm start` uses. One per test file: it takes a few seconds to start.
 */
export async function startTestWorker(
  databaseUrl: string,
  options: { dbDelayMs?: number; captureLog?: boolean; vars?: Record<string, string> } = {},
): Promise<TestWorker> {
  const proxy = await startSqlProxy({
    port: 0,
    targets: [proxyTarget(databaseUrl, inject('pgSocketDir'))],
    delayMs: options.dbDelayMs,
  });
  const state = await mkdtemp(path.join(tmpdir(), 'edge-mirror-worker-'));
  let log = '';
  const worker = await startWorkerProcess({
    entry: 'workers/testing/entry.ts',
    port: await freePort(),
    vars: { ...options.vars, DATABASE_URL: databaseUrl, DB_LOCAL_PROXY: proxy.address },
    persistTo: state,
    output: options.captureLog
      ? (text) => {
          log += text;
        }
      : 'ignore',
  }).catch(async (error: unknown) => {
    await proxy.close();
    await rm(state, { recursive: true, force: true });
    throw error;
  });
  return {
    baseUrl: worker.baseUrl,
    get log() {
      return log;
    },
    get dbQueries() {
      return proxy.queries;
    },
    get dbSequentialRoundTrips() {
      return proxy.sequentialRoundTrips;
    },
    async get(path, headers = {}) {
      const res = await fetch(worker.baseUrl + path, { headers });
      const text = await res.text();
      const isJson = res.headers.get('content-type')?.includes('application/json');
      return { status: res.status, headers: res.headers, body: isJson && text ? JSON.parse(text) : text };
    },
    async setState(state) {
      const res = await fetch(`${worker.baseUrl}/__test/state`, { method: 'POST', body: JSON.stringify(state) });
      if (res.status !== 204) throw new Error(`/__test/state answered ${res.status}`);
    },
    async stop() {
      await worker.stop();
      await proxy.close();
      await rm(state, { recursive: true, force: true });
    },
  };
}
