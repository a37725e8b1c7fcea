/**
 * `npm run bench:rosetta [-- --duration S] [--connections N] [--ports FIRST]`
 *
 * The Rosetta API as an exchange's indexer uses it, on a ledger the simulated network wrote (`.data/bench-rosetta`:
 * streams written, their genesis balances and records ingested into an embedded Postgres once, then reused), served
 * as `npm start` serves it: `/block` walked from the genesis block to the tip by `connections` clients (each takes
 * the next block), first with the edge cache off (every block read from the database), then with it on after one
 * walk that fills it; then `/account/balance` of the ledger's accounts at random past blocks, uncached. One line per
 * pass (rate, p50, SQL statements per request, CPU of workerd and Postgres per request), then
 * `rosetta: block N/s uncached, M/s cached, balance K/s`. `--ports`: Postgres and the Worker listen on FIRST and the
 * ports after it rather than on free ports drawn at random.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { answerHelp } from '../common/cli-help.ts';
import { proxyTarget, type SqlProxy, startSqlProxy } from '../db/local/sql-proxy.ts';
import type { LedgerSnapshot } from '../simulator/ledger/export.ts';
import { LEDGER_FILE } from '../simulator/write/layout.ts';
import { optionValue } from './cli-option.ts';
import { simulatedLedger, startBenchWorker } from './local-stack/bench-stack.ts';
import { freePort } from './local-stack/free-port.ts';
import { stopsOnSignal } from './local-stack/stops.ts';
import { REPO_ROOT, type WorkerProcess } from './local-stack/worker-process.ts';
import { descendantCpuSeconds, loadAverage, postgresCpuSeconds } from './process-cpu.ts';

answerHelp(
  process.argv.slice(2),
  `usage: npm run bench:rosetta [-- --duration S] [--connections N] [--ports FIRST]\n\n/rosetta/block walked from genesis uncached and cached, and /rosetta/account/balance at past blocks, on a simulated\nledger (.data/bench-rosetta); ends rosetta: block N/s uncached, M/s cached, balance K/s.`,
);

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => optionValue(args, name) ?? fallback;
const durationMs = Number(option('duration', '10')) * 1000;
const connections = Number(option('connections', '16'));
const firstPort = Number(option('ports', '0'));
let portsTaken = 0;
/** The next port: from `--ports` when given, else a free one. */
const nextPort = async () => (firstPort > 0 ? firstPort + portsTaken++ : freePort());
/** The simulated ledger: 300 blocks of 40 transactions a second (80 a block), every family of the mix. */
const SIMULATION = ['--files', '300', '--tps', '40', '--seed', 'bench-rosetta'];
const NETWORK = { blockchain: 'Hedera', network: 'demo' };

const OUT_DIR = path.join(REPO_ROOT, '.data/bench-rosetta');
const STREAMS = path.join(OUT_DIR, 'streams');
const CLUSTER = path.join(OUT_DIR, 'pg');
const log = (message: string) => console.error(`bench: ${message}`);

const { stops, stopAll } = stopsOnSignal();

interface Pass {
  rate: number;
  p50: number;
  requests: number;
  failed: number;
}

try {
  const local = await simulatedLedger({ dir: OUT_DIR, simulation: SIMULATION, port: await nextPort(), stops, log });
  const proxy = await startSqlProxy({ port: await nextPort(), targets: [proxyTarget(local.url, local.socketDir)] });
  stops.push(() => proxy.close());
  const accounts = (JSON.parse(readFileSync(path.join(STREAMS, LEDGER_FILE), 'utf8')) as LedgerSnapshot).accounts.map(
    (account) => account.id,
  );

  const uncached = await serve(local.url, proxy, false);
  const { genesis, tip } = await chainOf(uncached.baseUrl);
  log(`blocks ${genesis} to ${tip}, ${accounts.length} accounts, ${connections} connections`);
  const blocks = Array.from({ length: tip - genesis + 1 }, (_, i) => ({ block_identifier: { index: genesis + i } }));
  const blockUncached = await pass(
    'block uncached',
    uncached.baseUrl,
    proxy,
    '/block',
    (i) => blocks[i % blocks.length],
  );
  const random = seeded(7);
  const balance = await pass('balance uncached', uncached.baseUrl, proxy, '/account/balance', () => ({
    account_identifier: { address: accounts[Math.floor(random() * accounts.length)] },
    block_identifier: { index: genesis + Math.floor(random() * (tip - genesis)) },
  }));
  await uncached.stop();

  const cached = await serve(local.url, proxy, true);
  await walkOnce(cached.baseUrl, blocks);
  const blockCached = await pass('block cached', cached.baseUrl, proxy, '/block', (i) => blocks[i % blocks.length]);
  await cached.stop();

  log(`load average ${loadAverage()}`);
  console.log(
    `rosetta: block ${blockUncached.rate.toFixed(0)}/s uncached, ${blockCached.rate.toFixed(0)}/s cached, balance ${balance.rate.toFixed(0)}/s`,
  );
  await stopAll();
} catch (error) {
  await stopAll();
  console.error(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
}

/** The Worker as `npm start` serves it, its edge cache on or off, no rate limit. */
async function serve(databaseUrl: string, proxy: SqlProxy, cache: boolean): Promise<WorkerProcess> {
  return startBenchWorker({
    databaseUrl,
    proxy,
    port: await nextPort(),
    outDir: OUT_DIR,
    stops,
    vars: {
      HIERO_MIRROR_REST_EDGE_CACHE_ENABLED: String(cache),
      HIERO_MIRROR_REST_EDGE_CACHE_MEMORYBYTES: String(256 * 1024 * 1024),
    },
    cacheApi: false,
  });
}

interface NetworkStatus {
  genesis_block_identifier: { index: number };
  current_block_identifier: { index: number };
}

async function post(baseUrl: string, endpoint: string, body: object): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${baseUrl}/rosetta${endpoint}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ network_identifier: NETWORK, ...body }),
  });
  return { status: response.status, body: await response.json() };
}

async function chainOf(baseUrl: string): Promise<{ genesis: number; tip: number }> {
  const status = await post(baseUrl, '/network/status', {});
  if (status.status !== 200) throw new Error(`/network/status answered ${JSON.stringify(status.body)}`);
  const { genesis_block_identifier: genesis, current_block_identifier: tip } = status.body as NetworkStatus;
  return { genesis: genesis.index, tip: tip.index };
}

/** Every block once, in order, so that the cached pass finds them all in the edge cache. */
async function walkOnce(baseUrl: string, blocks: readonly object[]): Promise<void> {
  for (const block of blocks) await post(baseUrl, '/block', block);
}

/**
 * `connections` clients posting `bodyOf(n)` (n counting requests across clients) back to back for the duration;
 * prints the pass's line and returns its figures.
 */
async function pass(
  name: string,
  baseUrl: string,
  proxy: SqlProxy,
  endpoint: string,
  bodyOf: (n: number) => object | undefined,
): Promise<Pass> {
  const before = {
    statements: proxy.queries,
    workerd: descendantCpuSeconds('workerd'),
    pg: postgresCpuSeconds(CLUSTER),
  };
  const latencies: number[] = [];
  let failed = 0;
  let next = 0;
  const until = performance.now() + durationMs;
  const client = async () => {
    while (performance.now() < until) {
      const body = JSON.stringify({ network_identifier: NETWORK, ...bodyOf(next++) });
      const started = performance.now();
      const response = await fetch(`${baseUrl}/rosetta${endpoint}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      await response.arrayBuffer();
      latencies.push(performance.now() - started);
      if (response.status !== 200) failed++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, client));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const requests = latencies.length;
  const perRequest = (start: number | undefined, end: number | undefined) =>
    start === undefined || end === undefined ? '?' : (((end - start) * 1000) / Math.max(requests, 1)).toFixed(2);
  const result = { rate: requests / elapsed, p50: latencies[Math.floor(requests / 2)] ?? 0, requests, failed };
  const statements = ((proxy.queries - before.statements) / Math.max(requests, 1)).toFixed(2);
  console.log(
    `${name}: ${result.rate.toFixed(0)} requests/s, p50 ${result.p50.toFixed(1)} ms, ${statements} statements/request, ` +
      `CPU ms/request: workerd ${perRequest(before.workerd, descendantCpuSeconds('workerd'))}, ` +
      `postgres ${perRequest(before.pg, postgresCpuSeconds(CLUSTER))}${failed ? ` (${failed} not 200)` : ''}`,
  );
  return result;
}

/** A repeatable stream of numbers in [0, 1) (mulberry32), so that runs ask for the same balances. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
