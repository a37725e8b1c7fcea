/**
 * `npm run bench:rest [-- --vs BASE_URL] [--db-port N] [--duration S] [--connections N] [--only RE] [--skip-cached]
 *   [--skip-ratelimit] [--encoding gzip|identity] [--delay MS]`
 *
 * The REST benchmark of the perf kit (../shared/perf): a database with the perf dataset (embedded Postgres under .data/bench-pg,
 * or DATABASE_URL; loaded once with gen-dataset.mjs --scale 1 and reused), the Worker served exactly as
 * `npm start` serves it (workerd through Miniflare, the SQL-over-HTTP proxy), then, after a warm-up, bench.mjs over urls.json:
 * first with the edge cache off (`rest: …`), then on (`rest-cached: …`), both with rate limiting off (one client sends
 * all the load), then with the cache on and rate limiting on at its defaults (`rest-cached-ratelimit: …`, and how it
 * compares with `rest-cached`): the limit guards only what reaches the database, so cached reads should not feel it.
 * It ends with one table of every URL's rate, p50 and p99 in each pass (bench-rest-table.ts), also written to
 * `.data/bench/per-url.md`.
 * `--vs BASE_URL` runs the uncached pass side by side with another server on the same dataset (the reference: its
 * REST server run as its container image runs it, on its own Node major, pointed at this database; docs/performance.md,
 * "How to measure"), URL by URL, and adds its figures and the ratios to the table and a `vs:` line. `--db-port N`
 * serves the embedded perf database on that port, where the other server can be pointed before the run.
 * `--delay MS` puts the database that far from the Worker: every round trip through the proxy waits that long.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { answerHelp } from '../common/cli-help.ts';
import { proxyTarget, startSqlProxy } from '../db/local/sql-proxy.ts';
import { compare, type PassReport, perUrlTable, type UrlFigures } from './bench-rest-table.ts';
import { optionValue } from './cli-option.ts';
import { freePort } from './local-stack/free-port.ts';
import { openPerfDatabase, PERF_DIR, requirePerfKit, requireServer, runPerfBench } from './local-stack/perf-dataset.ts';
import { stopsOnSignal } from './local-stack/stops.ts';
import { warmUp } from './local-stack/warm-up.ts';
import { REPO_ROOT, startWorkerProcess, type WorkerProcess } from './local-stack/worker-process.ts';
import { loadAverage } from './process-cpu.ts';

const USAGE = `usage: npm run bench:rest [-- --vs BASE_URL] [--db-port N] [--duration S] [--connections N] [--only RE]
  [--skip-cached] [--skip-ratelimit] [--encoding gzip|identity] [--delay MS]

The REST benchmark of ../shared/perf on the perf dataset (.data/bench-pg, or DATABASE_URL): edge cache off, then on,
then on with the rate limit; ends with rest:, rest-cached: and rest-cached-ratelimit: lines and a per-URL table.
--vs: the uncached pass side by side with that server (the reference, run as its image runs it: Node 24, pointed at
the database --db-port serves; docs/performance.md), and a vs: line. --delay: milliseconds every database round
trip waits.`;
answerHelp(process.argv.slice(2), USAGE);

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => optionValue(args, name) ?? fallback;
const duration = option('duration', '10');
const connections = option('connections', '16');
const only = args.includes('--only') ? new RegExp(option('only', '.')) : undefined;
const skipCached = args.includes('--skip-cached');
const skipRateLimit = args.includes('--skip-ratelimit');
const delayMs = Number(option('delay', '0'));
const vs = args.includes('--vs') ? option('vs', '') : undefined;
const encoding = option('encoding', 'gzip');
const dbPort = args.includes('--db-port') ? Number(option('db-port', '')) : undefined;
if (
  !(delayMs >= 0) ||
  (vs !== undefined && !URL.canParse(vs)) ||
  (encoding !== 'gzip' && encoding !== 'identity') ||
  (dbPort !== undefined && !(Number.isInteger(dbPort) && dbPort > 0 && dbPort < 65536))
) {
  console.error(
    `bench:rest: --delay takes milliseconds, --vs a base URL, --encoding gzip or identity, --db-port a port\n\n${USAGE}`,
  );
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
  const database = await openPerfDatabase(log, dbPort);
  stops.push(() => database.stop());
  const databaseUrl = database.url;

  const proxy = await startSqlProxy({ port: 0, targets: [proxyTarget(databaseUrl, database.socketDir)], delayMs });
  stops.push(() => proxy.close());
  const urls = JSON.parse(readFileSync(path.join(PERF_DIR, 'urls.json'), 'utf8')) as string[];
  const urlsFile = path.join(OUT_DIR, 'urls.json');
  const selected = only ? urls.filter((u) => only.test(u)) : urls;
  if (selected.length === 0) throw new Error(`--only ${only} matches none of the ${urls.length} URLs of urls.json`);
  writeFileSync(urlsFile, JSON.stringify(selected));
  if (vs) await requireServer('bench:rest', vs, selected[0] as string);

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
    const sideBySide = name === 'rest' ? vs : undefined;
    await runPerfBench({ base: worker.baseUrl, vs: sideBySide, urlsFile, duration, connections, report, encoding });
    await worker.stop();
    const { summary, rows } = JSON.parse(readFileSync(report, 'utf8')) as {
      /** The kit's p50 geo-mean is null when any URL's p50 rounds to 0 ms. */
      summary: { baseRpsGeomean: number; baseP50Geomean: number | null };
      rows: { url: string; base: UrlFigures; vs?: UrlFigures }[];
    };
    reports.push({ name, rows });
    const non2xx = rows.reduce((sum, row) => sum + row.base.non2xx, 0);
    rps.set(name, summary.baseRpsGeomean);
    const off = rps.get('rest-cached');
    const versus =
      rateLimit && off ? `, ${((summary.baseRpsGeomean / off - 1) * 100).toFixed(1)}% vs rate limit off` : '';
    const uncached = rps.get('rest');
    const overUncached =
      cached && !rateLimit && uncached ? `, ${(summary.baseRpsGeomean / uncached).toFixed(1)}x uncached` : '';
    console.log(
      `${name}: ${summary.baseRpsGeomean.toFixed(0)} rps geo-mean, p50 ${summary.baseP50Geomean === null ? '< 1' : summary.baseP50Geomean.toFixed(1)} ms${overUncached}${versus}${non2xx ? ` (${non2xx} non-2xx)` : ''}`,
    );
    const comparison = sideBySide ? compare({ name, rows }) : undefined;
    if (comparison) {
      const below = comparison.below.map((b) => `${b.url} ${b.ratio.toFixed(2)}x`).join(', ') || 'none';
      console.log(
        `vs: ${comparison.rpsRatio.toFixed(2)}x ${vs}'s geo-mean rate (${encoding}); below 1x: ${below}; p99 at most its own on ${comparison.p99AtMost} of ${comparison.urls} URLs`,
      );
    }
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
