/**
 * `npm run test:reliability`: what the mirror must survive, checked end to end on a stack of its own (an embedded
 * Postgres under .data/reliability, the Worker in workerd). A simulated network writes a stream; the ingest is
 * killed at random points and finished, and every table compared with a clean run; Postgres is stopped mid-ingest
 * and started again, and the ingest must finish by itself; each kind of corrupt file must be refused by name;
 * every GET route is fuzzed with malformed parameters (no 5xx); and a flood with invented API keys from one
 * address must meet 429s without a 5xx or an object per key. One line per check, then
 * `reliability: 0 tables differ after N kills, 0 5xx in M fuzzed requests, K objects for J invented keys`.
 *
 * Settings (environment): RELIABILITY_FILES (simulated files, 12), RELIABILITY_TPS (transactions a second, 300),
 * RELIABILITY_KILLS (20), RELIABILITY_PG_DOWN_SECONDS (10), RELIABILITY_FUZZ (requests, 5000),
 * RELIABILITY_FLOOD (requests, 20000), RELIABILITY_FLOOD_RATE (the flooded bucket's rate a second, 100; burst twice
 * that), RELIABILITY_SEED (1).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { answerHelp } from '../common/cli-help.ts';
import { proxyTarget, startSqlProxy } from '../db/local/sql-proxy.ts';
import { parseOptions } from '../simulator/main.ts';
import { simulate } from '../simulator/run.ts';
import { RATE_LIMITER_SHARDS } from '../workers/durable/rate-limiter-shard.ts';
import { freePort } from './local-stack/free-port.ts';
import { REPO_ROOT, startWorkerProcess } from './local-stack/worker-process.ts';
import { type CheckResult, cleanRun, killedRuns, postgresRestart } from './reliability/checks-ingest.ts';
import { startCluster } from './reliability/cluster.ts';
import { corruptFiles } from './reliability/corrupt-files.ts';
import { countRateLimiterObjects, floodWithInventedKeys } from './reliability/flood.ts';
import { fuzzGetRoutes } from './reliability/fuzz-get-routes.ts';

answerHelp(
  process.argv.slice(2),
  `usage: npm run test:reliability\n\nIngest kills, Postgres stopped mid-ingest, corrupt files, fuzzed GET routes and an API key flood on a stack of its\nown; the last line starts with reliability:. Environment: RELIABILITY_FILES (12), RELIABILITY_TPS (300), RELIABILITY_KILLS (20),\nRELIABILITY_PG_DOWN_SECONDS (10), RELIABILITY_FUZZ (5000), RELIABILITY_FLOOD (20000), RELIABILITY_FLOOD_RATE (100),\nRELIABILITY_SEED (1).`,
);

const setting = (name: string, fallback: number) => {
  const value = Number(process.env[`RELIABILITY_${name}`] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`RELIABILITY_${name} must be a number`);
  return value;
};
const FILES = setting('FILES', 12);
const TPS = setting('TPS', 300);
const KILLS = setting('KILLS', 20);
const PG_DOWN_MS = setting('PG_DOWN_SECONDS', 10) * 1000;
const FUZZ = setting('FUZZ', 5000);
const FLOOD = setting('FLOOD', 20_000);
const SEED = setting('SEED', 1);
const FLOOD_RATE = setting('FLOOD_RATE', 100);

/** mulberry32: kill points from the seed, so a failing run can be repeated. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const results: CheckResult[] = [];
const report = (result: CheckResult) => {
  results.push(result);
  console.log(`${result.ok ? 'ok  ' : 'FAIL'} ${result.line}`);
};

await mkdir(path.join(REPO_ROOT, '.data'), { recursive: true });
const work = await mkdtemp(path.join(REPO_ROOT, '.data/reliability-work-'));
const cluster = await startCluster();
const stops: (() => Promise<void>)[] = [() => cluster.remove(), () => rm(work, { recursive: true, force: true })];
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.removeAllListeners(signal);
  process.on(signal, () => void stopAll().then(() => process.exit(130)));
}
async function stopAll() {
  for (const stop of stops.splice(0).reverse()) await stop().catch(() => {});
}

// Unmeasured (a check that did not run) shows as `?` in the summary.
let differing: number | undefined;
let fuzz5xx: number | undefined;
let objects: number | undefined;
try {
  const streams = path.join(work, 'streams');
  const simulated = await simulate(
    parseOptions([
      '--out',
      streams,
      '--files',
      String(FILES),
      '--tps',
      String(TPS),
      '--seed',
      `reliability-${SEED}`,
      '--quiet',
    ]),
  );
  const clean = await cleanRun(cluster, streams);
  console.log(
    `simulated ${simulated.transactions} transactions in ${clean.files} record files; a clean ingest took ${(clean.ms / 1000).toFixed(1)} s; ${Object.keys(clean.tables).length} tables are compared`,
  );

  const killed = await killedRuns(cluster, streams, clean, KILLS, random(SEED));
  differing = killed.differing;
  report(killed);
  report(await postgresRestart(cluster, streams, clean, PG_DOWN_MS));
  report(await corruptFiles(cluster, streams, work));

  // The Worker on the clean database: malformed parameters then meet real rows.
  const proxy = await startSqlProxy({ port: 0, targets: [proxyTarget(clean.url, cluster.socketDir)] });
  stops.push(() => proxy.close());
  const vars = { DATABASE_URL: clean.url, DB_LOCAL_PROXY: proxy.address };
  const fuzzWorker = await startWorkerProcess({
    port: await freePort(),
    vars: { ...vars, HIERO_MIRROR_REST_EDGE_RATELIMIT_ENABLED: 'false' },
    persistTo: path.join(work, 'fuzz-state'),
    output: 'ignore',
  });
  const fuzzed = await fuzzGetRoutes({ baseUrl: fuzzWorker.baseUrl, requests: FUZZ, seed: SEED, concurrency: 8 });
  await fuzzWorker.stop();
  fuzz5xx = fuzzed.failures.length;
  const statuses = [...fuzzed.byStatus].sort(([a], [b]) => a - b).map(([s, n]) => `${n} × ${s}`);
  report({
    ok: fuzz5xx === 0,
    line: `fuzzed every GET route with ${fuzzed.requests} malformed requests: ${fuzz5xx} 5xx (${statuses.join(', ')})${fuzzed.failures
      .slice(0, 5)
      .map((f) => `\n       ${f.status} ${f.url.slice(0, 200)}`)
      .join('')}`,
  });

  // Rate limiting on, with a bucket a local flood empties within seconds (the defaults allow 500 requests a second
  // that reach the database, about what this machine serves), and the objects on disk where they can be counted.
  const floodState = path.join(work, 'flood-state');
  const floodWorker = await startWorkerProcess({
    port: await freePort(),
    vars: {
      ...vars,
      HIERO_MIRROR_REST_EDGE_RATELIMIT_READS_RATE: String(FLOOD_RATE),
      HIERO_MIRROR_REST_EDGE_RATELIMIT_READS_BURST: String(FLOOD_RATE * 2),
    },
    persistTo: floodState,
    output: 'ignore',
  });
  const flood = await floodWithInventedKeys({ baseUrl: floodWorker.baseUrl, requests: FLOOD, address: '198.51.100.7' });
  await floodWorker.stop();
  objects = countRateLimiterObjects(floodState);
  const limited = flood.byStatus.get(429) ?? 0;
  const other = [...flood.byStatus].filter(([s]) => s !== 200 && s !== 429);
  report({
    ok: limited > 0 && other.length === 0 && objects <= RATE_LIMITER_SHARDS,
    line: `flood of ${FLOOD} requests with ${FLOOD} invented API keys from one address (${FLOOD_RATE} a second, burst ${FLOOD_RATE * 2}): ${flood.byStatus.get(200) ?? 0} × 200, ${limited} × 429${limited ? ` (the first at request ${flood.firstLimited + 1})` : ''}${other.map(([s, n]) => `, ${n} × ${s}`).join('')}; ${objects} rate limiter objects`,
  });
} catch (error) {
  report({
    ok: false,
    line: `the run failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  });
} finally {
  await stopAll();
}

console.log(
  `reliability: ${differing ?? '?'} tables differ after ${KILLS} kills, ${fuzz5xx ?? '?'} 5xx in ${FUZZ} fuzzed requests, ${objects ?? '?'} objects for ${FLOOD} invented keys`,
);
process.exit(results.every((r) => r.ok) ? 0 : 1);
