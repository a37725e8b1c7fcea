/**
 * `npm run bench:latency [-- --requests N] [--distances 0,20,80] [--only RE]`
 *
 * What a user far from the database waits for. The perf dataset (as `npm run bench:rest` loads it) behind the local
 * SQL proxy, whose every round trip is delayed by the distance (0, 20 and 80 ms by default); the Worker served as
 * `npm start` serves it, once with the edge cache off and once with it on. One client asks each URL of
 * ../shared/perf/urls.json `--requests` times in a row (after a few unmeasured requests); per distance it prints the
 * p50 and p99 over the whole mix, uncached and cached, and the database round trips per request counted at the proxy
 * (a batch is one): all of them, and those waited for in turn (statements sent together overlap), naming every URL
 * that waits for more than one. Rate limiting is off: one client sends everything.
 * Ends with `latency: uncached p50 A ms at 80 ms, cached p50 B ms` (the largest distance).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { answerHelp } from '../common/cli-help.ts';
import { proxyTarget, type SqlProxy, startSqlProxy } from '../db/local/sql-proxy.ts';
import { optionValue } from './cli-option.ts';
import { freePort } from './local-stack/free-port.ts';
import { openPerfDatabase, PERF_DIR, requirePerfKit } from './local-stack/perf-dataset.ts';
import { stopsOnSignal } from './local-stack/stops.ts';
import { REPO_ROOT, startWorkerProcess } from './local-stack/worker-process.ts';

answerHelp(
  process.argv.slice(2),
  `usage: npm run bench:latency [-- --requests N] [--distances 0,20,80] [--only RE]\n\nThe perf URLs one at a time with the database 0, 20 and 80 ms away, uncached and cached; ends with\nlatency: uncached p50 A ms at 80 ms, cached p50 B ms.`,
);

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => optionValue(args, name) ?? fallback;
const requests = Number(option('requests', '20'));
const distances = option('distances', '0,20,80').split(',').map(Number);
const only = args.includes('--only') ? new RegExp(option('only', '.')) : undefined;
if (!(requests > 0) || distances.some((d) => !(d >= 0))) {
  console.error('bench:latency: --requests takes a positive number, --distances a list of milliseconds (0,20,80)');
  process.exit(2);
}
requirePerfKit('bench:latency');
/** Unmeasured requests per URL first: the Worker's code compiled, the proxy's connections and statements ready. */
const WARM_UP_REQUESTS = 3;

const log = (message: string) => console.error(`bench: ${message}`);

const { stops, stopAll } = stopsOnSignal();

interface Pass {
  /** Milliseconds of every request of the mix, sorted. */
  latencies: number[];
  /** Database round trips per request, per URL: all, and those waited for in turn. */
  roundTrips: Map<string, { all: number; inTurn: number }>;
}

/** Every URL of the mix `requests` times in a row, one request at a time, timed from send to the body's last byte. */
async function measure(baseUrl: string, urls: string[], proxy: SqlProxy): Promise<Pass> {
  const latencies: number[] = [];
  const roundTrips = new Map<string, { all: number; inTurn: number }>();
  for (const url of urls) {
    for (let i = 0; i < WARM_UP_REQUESTS; i++) await (await fetch(baseUrl + url)).arrayBuffer();
    const before = { all: proxy.roundTrips, inTurn: proxy.sequentialRoundTrips };
    for (let i = 0; i < requests; i++) {
      const started = performance.now();
      const response = await fetch(baseUrl + url);
      await response.arrayBuffer();
      latencies.push(performance.now() - started);
      if (response.status !== 200) log(`${url}: ${response.status}`);
    }
    roundTrips.set(url, {
      all: (proxy.roundTrips - before.all) / requests,
      inTurn: (proxy.sequentialRoundTrips - before.inTurn) / requests,
    });
  }
  return { latencies: latencies.sort((a, b) => a - b), roundTrips };
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
const ms = (value: number) => value.toFixed(1);

function describe(pass: Pass): string {
  const trips = [...pass.roundTrips.values()];
  const mean = (of: (t: { all: number; inTurn: number }) => number) =>
    (trips.reduce((sum, t) => sum + of(t), 0) / trips.length).toFixed(2);
  const maxInTurn = Math.max(...trips.map((t) => t.inTurn)).toFixed(2);
  return `p50 ${ms(percentile(pass.latencies, 50))} ms, p99 ${ms(percentile(pass.latencies, 99))} ms, round trips/request ${mean((t) => t.all)}, in turn ${mean((t) => t.inTurn)} (max ${maxInTurn})`;
}

try {
  const database = await openPerfDatabase(log);
  stops.push(() => database.stop());
  const proxy = await startSqlProxy({ port: 0, targets: [proxyTarget(database.url, database.socketDir)] });
  stops.push(() => proxy.close());
  const urls = (JSON.parse(readFileSync(path.join(PERF_DIR, 'urls.json'), 'utf8')) as string[]).filter(
    (url) => !only || only.test(url),
  );

  const workers = [];
  for (const cached of [false, true]) {
    const worker = await startWorkerProcess({
      port: await freePort(),
      cacheApi: false,
      vars: {
        DATABASE_URL: database.url,
        DB_LOCAL_PROXY: proxy.address,
        HIERO_MIRROR_REST_EDGE_CACHE_ENABLED: String(cached),
        HIERO_MIRROR_REST_EDGE_RATELIMIT_ENABLED: 'false',
      },
      persistTo: path.join(REPO_ROOT, '.data/bench/latency-state'),
      output: 'ignore',
    });
    stops.push(() => worker.stop());
    workers.push({ cached, baseUrl: worker.baseUrl });
  }

  const results: { distance: number; uncached: Pass; cached: Pass }[] = [];
  for (const distance of distances) {
    proxy.delayMs = distance;
    const passes: Pass[] = [];
    for (const worker of workers) passes.push(await measure(worker.baseUrl, urls, proxy));
    const [off, on] = passes as [Pass, Pass];
    results.push({ distance, uncached: off, cached: on });
    console.log(`database ${distance} ms away: uncached ${describe(off)}; cached ${describe(on)}`);
    for (const [url, trips] of off.roundTrips) {
      if (trips.inTurn > 1)
        console.log(`  ${trips.inTurn.toFixed(2)} round trips in turn (${trips.all.toFixed(2)} in all): ${url}`);
    }
  }

  const local = results.find((r) => r.distance === 0);
  const far = results.reduce((a, b) => (b.distance > a.distance ? b : a));
  const farUncached = percentile(far.uncached.latencies, 50);
  const farCached = percentile(far.cached.latencies, 50);
  if (local && far.distance > 0) {
    // The bound: one round trip to the database and a little more, never two.
    const bound = 1.2 * far.distance + percentile(local.uncached.latencies, 50);
    console.log(
      `uncached p50 at ${far.distance} ms ${farUncached <= bound ? 'within' : 'OVER'} 1.2 x ${far.distance} ms + the local p50 (${ms(bound)} ms); cached p50 ${ms(percentile(local.cached.latencies, 50))} ms at 0 ms`,
    );
  }
  await stopAll();
  console.log(`latency: uncached p50 ${ms(farUncached)} ms at ${far.distance} ms, cached p50 ${ms(farCached)} ms`);
} catch (error) {
  await stopAll();
  console.error(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
}
