/**
 * `npm run bench:floor [-- --duration S] [--connections N] [--url PATH] [--vs BASE_URL]`
 *
 * How fast any Worker could answer a single-row lookup in this runtime on this machine, beside how fast ours does.
 * On the perf dataset and the SQL proxy of `npm run bench:rest`, four Workers served as `npm start` serves ours,
 * each measured on the same URL (the perf kit's `/api/v1/blocks/{number}` unless `--url`) with bench.mjs:
 *   - `edge-mirror`: the real Worker, edge cache and rate limit off;
 *   - `neon-driver`: the route's statement through Neon's driver, the row returned as JSON, nothing else;
 *   - `raw-fetch`: the route's statement as one plain fetch in the driver's protocol, its answer returned as is;
 *   - `constant`: the real Worker's answer to the URL returned as a constant, no database.
 * With `--vs`, each run is side by side with that server (another mirror node on the same dataset) and the ratios
 * are printed. Ends with one table and a `floor:` line per Worker.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { answerHelp } from '../common/cli-help.ts';
import { proxyTarget, startSqlProxy } from '../db/local/sql-proxy.ts';
import { freePort } from './local-stack/free-port.ts';
import { openPerfDatabase, PERF_DIR, requirePerfKit, runPerfBench } from './local-stack/perf-dataset.ts';
import { stopsOnSignal } from './local-stack/stops.ts';
import { warmUp } from './local-stack/warm-up.ts';
import { REPO_ROOT, startWorkerProcess } from './local-stack/worker-process.ts';
import { loadAverage } from './process-cpu.ts';

const USAGE = `usage: npm run bench:floor [-- --duration S] [--connections N] [--url PATH] [--vs BASE_URL]

The real Worker beside three floor Workers (Neon's driver alone, one raw fetch, a constant answer) on one block
lookup of the perf dataset; --vs measures each side by side with another server. Ends with floor: lines.`;
answerHelp(process.argv.slice(2), USAGE);

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};
const duration = option('duration') ?? '10';
const connections = option('connections') ?? '16';
const vs = option('vs');
if (!(Number(duration) > 0) || !(Number(connections) > 0) || (vs !== undefined && !URL.canParse(vs))) {
  console.error(`bench:floor: --duration and --connections take positive numbers, --vs a base URL\n\n${USAGE}`);
  process.exit(2);
}
requirePerfKit('bench:floor');
const WARM_UP_REQUESTS = 400;
const OUT_DIR = path.join(REPO_ROOT, '.data/bench');

const WORKERS = [
  { name: 'edge-mirror', entry: undefined, does: 'the real Worker, edge cache and rate limit off' },
  {
    name: 'neon-driver',
    entry: 'workers/bench-floor/neon-driver-worker.ts',
    does: "the statement through Neon's driver",
  },
  { name: 'raw-fetch', entry: 'workers/bench-floor/raw-fetch-worker.ts', does: 'the statement as one plain fetch' },
  { name: 'constant', entry: 'workers/bench-floor/constant-worker.ts', does: 'a constant answer, no database' },
] as const;

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

const log = (message: string) => console.error(`bench: ${message}`);
const { stops, stopAll } = stopsOnSignal();

try {
  const urls = JSON.parse(readFileSync(path.join(PERF_DIR, 'urls.json'), 'utf8')) as string[];
  const url = option('url') ?? urls.find((u) => /^\/api\/v1\/blocks\/\d+$/.test(u));
  if (!url?.match(/\/\d+$/)) throw new Error('--url must end in a block number');
  const urlsFile = path.join(OUT_DIR, 'floor-urls.json');
  writeFileSync(urlsFile, JSON.stringify([url]));

  const database = await openPerfDatabase(log);
  stops.push(() => database.stop());
  const proxy = await startSqlProxy({ port: 0, targets: [proxyTarget(database.url, database.socketDir)] });
  stops.push(() => proxy.close());
  const vars = {
    DATABASE_URL: database.url,
    DB_LOCAL_PROXY: proxy.address,
    HIERO_MIRROR_REST_EDGE_CACHE_ENABLED: 'false',
    HIERO_MIRROR_REST_EDGE_RATELIMIT_ENABLED: 'false',
  };
  const results: { name: string; does: string; figures: Figures; versus?: Figures }[] = [];
  const loadAtStart = loadAverage();
  let body: string | undefined;
  for (const { name, entry, does } of WORKERS) {
    const worker = await startWorkerProcess({
      entry,
      port: await freePort(),
      cacheApi: false,
      vars: body === undefined ? vars : { ...vars, FLOOR_BODY: body },
      persistTo: path.join(OUT_DIR, 'wrangler-state'),
      output: 'ignore',
    });
    if (body === undefined) {
      const answer = await fetch(worker.baseUrl + url);
      body = await answer.text();
      if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}: ${body}`);
    }
    log(`${name} (${does}): ${worker.baseUrl}, warming up with ${WARM_UP_REQUESTS} requests`);
    await warmUp(worker.baseUrl, [url], Number(connections), WARM_UP_REQUESTS);
    const report = path.join(OUT_DIR, `floor-${name}.json`);
    await runPerfBench({ base: worker.baseUrl, vs, urlsFile, duration, connections, report });
    await worker.stop();
    const [row] = (JSON.parse(readFileSync(report, 'utf8')) as { rows: { base: Figures; vs?: Figures }[] }).rows;
    if (!row) throw new Error(`bench.mjs wrote no row to ${report}`);
    results.push({ name, does, figures: row.base, versus: row.vs });
  }
  console.log(
    `\n${url}, ${connections} connections, ${duration} s per Worker; load average ${loadAtStart} at the start, ${loadAverage()} at the end\n`,
  );
  console.log(floorTable(results));
  for (const { name, figures, versus } of results) {
    const ratio = versus ? `, ${(figures.rps / versus.rps).toFixed(2)}x ${vs}` : '';
    console.log(`floor: ${name} ${figures.rps.toFixed(0)} rps, p50 ${figures.p50} ms, p99 ${figures.p99} ms${ratio}`);
  }
  await stopAll();
} catch (error) {
  await stopAll();
  console.error(`bench:floor failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
}

function floorTable(results: { name: string; does: string; figures: Figures; versus?: Figures }[]): string {
  const side = results.some((r) => r.versus);
  const head = ['Worker', 'what it does', 'rps', 'p50 ms', 'p99 ms', 'non-2xx'];
  if (side) head.push('other rps', 'other p50 ms', 'other p99 ms', 'rps × other');
  const lines = [`| ${head.join(' | ')} |`, `|---|---|${'---:|'.repeat(head.length - 2)}`];
  for (const { name, does, figures: f, versus: v } of results) {
    const cells = [name, does, f.rps.toFixed(0), String(f.p50), String(f.p99), String(f.non2xx)];
    if (v) cells.push(v.rps.toFixed(0), String(v.p50), String(v.p99), `${(f.rps / v.rps).toFixed(2)}×`);
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}
