/**
 * `npm run bench:rest [-- --duration S] [--connections N] [--only RE] [--skip-cached] [--skip-ratelimit]`
 *
 * The REST benchmark of the perf kit (../shared/perf): a database with the perf dataset (embedded Postgres under .data/bench-pg,
 * or DATABASE_URL; loaded once with gen-dataset.mjs --scale 1 and reused), the Worker served exactly as
 * `npm start` serves it (workerd through Miniflare, the SQL-over-HTTP proxy), then, after a warm-up, bench.mjs over urls.json:
 * first with the edge cache off (`rest: …`), then on (`rest-cached: …`), both with rate limiting off (one client sends
 * all the load), then with the cache on and rate limiting on at its defaults (`rest-cached-ratelimit: …`, and how it
 * compares with `rest-cached`): the limit guards only what reaches the database, so cached reads should not feel it.
 * It ends with one table of every URL's rate, p50 and p99 in each pass (bench-rest-table.ts), also written to
 * `.data/bench/per-url.md`.
 * `--delay MS` puts the database that far from the Worker: every round trip through the proxy waits that long.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { answerHelp } from '../common/cli-help.ts';
import { proxyTarget, startSqlProxy } from '../db/local/sql-proxy.ts';
import { type PassReport, perUrlTable, type UrlFigures } from './bench-rest-table.ts';
import { freePort } from './local-stack/free-port.ts';
import { openPerfDatabase, PERF_DIR, requirePerfKit, runPerfBench } from './local-stack/perf-dataset.ts';
import { stopsOnSignal } from './local-stack/stops.ts';
import { warmUp } from './local-stack/warm-up.ts';
import { REPO_ROOT, startWorkerProcess, type WorkerProcess } from './local-stack/worker-process.ts';
import { loadAverage } from './process-cpu.ts';

answerHelp(
  process.argv.slice(2),
  `usage: npm run bench:rest [-- --duration S] [--connections N] [--only RE] [--skip-cached] [--skip-ratelimit] [--delay MS]\n\nThe REST benchmark of ../shared/perf on the perf dataset (.data/bench-pg, or DATABASE_URL): edge cache off, then on,\nthen on with the rate limit; ends with rest:, rest-cached: and rest-cached-ratelimit: lines. --delay: milliseconds\nevery database round trip waits.`,
);

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? (args[at + 1] ?? fallback) : fallback;
};
const duration = option('duration', '10');
const connections = option('connections', '16');
const only = args.includes('--only') ? new RegExp(option('only', '.')) : undefined;
const skipCached = args.includes('--skip-cached');
const skipRateLimit = args.includes('--skip-ratelimit');
const delayMs = Number(option('delay', '0'));
if (!(delayMs >= 0)) {
  console.error('bench:rest: --delay takes a number of milliseconds');
  process.exit(2);
}
requirePerfKit('bench:rest');
/** Requests per URL before measuring (local-stack/warm-up.ts). */
const WARM_UP_REQUESTS = 400;

const OUT_DIR = path.join(REPO_ROOT, '.data/bench');
const log = (message: string) => console.error(`bench: ${message}`);

const { stops, stopAll } = stopsOnSignal();

try {
  mkdirSync(OUT_DIR, { recursive: true });
  const database = await openPerfDatabase(log);
  stops.push(() => database.stop());
  const databaseUrl = database.url;

  const proxy = await startSqlProxy({ port: 0, targets: [proxyTarget(databaseUrl, database.socketDir)], delayMs });
  stops.push(() => proxy.close());
  const urls = JSON.parse(readFileSync(path.join(PERF_DIR, 'urls.json'), 'utf8')) as string[];
  const urlsFile = path.join(OUT_DIR, 'urls.json');
  const selected = only ? urls.filter((u) => only.test(u)) : urls;
  if (selected.length === 0) throw new Error(`--only ${only} matches none of the ${urls.length} URLs of urls.json`);
  writeFileSync(urlsFile, JSON.stringify(selected));

  const passes = [
    { name: 'rest', cached: false, rateLimit: false },
    ...(skipCached ? [] : [{ name: 'rest-cached', cached: true, rateLimit: false }]),
    ...(skipCached || skipRateLimit ? [] : [{ name: 'rest-cached-ratelimit', cached: true, rateLimit: true }]),
  ];
  const rps = new Map<string, number>();
  const reports: PassReport[] = [];
  const startedAt = new Date().toISOString();
  const loadAtStart = loadAverage();
  for (const { name, cached, rateLimit } of passes) {
    const worker: WorkerProcess = await startWorkerProcess({
      port: await freePort(),
      cacheApi: false,
      vars: {
        DATABASE_URL: databaseUrl,
        DB_LOCAL_PROXY: proxy.address,
        HIERO_MIRROR_REST_EDGE_CACHE_ENABLED: String(cached),
        HIERO_MIRROR_REST_EDGE_RATELIMIT_ENABLED: String(rateLimit),
      },
      persistTo: path.join(OUT_DIR, 'wrangler-state'),
      output: 'ignore',
    });
    log(
      `${name}: edge cache ${cached ? 'on' : 'off'}, rate limit ${rateLimit ? 'on' : 'off'}: Worker ${worker.baseUrl}`,
    );
    log(`warming up: ${WARM_UP_REQUESTS} requests per URL`);
    await warmUp(worker.baseUrl, selected, Number(connections), WARM_UP_REQUESTS);
    const report = path.join(OUT_DIR, `${name}.json`);
    await runPerfBench({ base: worker.baseUrl, urlsFile, duration, connections, report });
    await worker.stop();
    const { summary, rows } = JSON.parse(readFileSync(report, 'utf8')) as {
      /** The kit's p50 geo-mean is null when any URL's p50 rounds to 0 ms. */
      summary: { baseRpsGeomean: number; baseP50Geomean: number | null };
      rows: { url: string; base: UrlFigures }[];
    };
    reports.push({ name, rows });
    const non2xx = rows.reduce((sum, row) => sum + row.base.non2xx, 0);
    rps.set(name, summary.baseRpsGeomean);
    const off = rps.get('rest-cached');
    const versus =
      rateLimit && off ? `, ${((summary.baseRpsGeomean / off - 1) * 100).toFixed(1)}% vs rate limit off` : '';
    console.log(
      `${name}: ${summary.baseRpsGeomean.toFixed(0)} rps geo-mean, p50 ${summary.baseP50Geomean === null ? '< 1' : summary.baseP50Geomean.toFixed(1)} ms${versus}${non2xx ? ` (${non2xx} non-2xx)` : ''}`,
    );
  }
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  const table = perUrlTable(reports, {
    date: startedAt,
    commit,
    loadAverage: `${loadAtStart} at the start, ${loadAverage()} at the end`,
  });
  writeFileSync(path.join(OUT_DIR, 'per-url.md'), `${table}\n`);
  console.log(`\n${table}`);
  await stopAll();
} catch (error) {
  await stopAll();
  console.error(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
}
