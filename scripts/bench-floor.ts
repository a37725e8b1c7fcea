/**
 * `npm run bench:floor [-- --duration S] [--rounds N] [--connections N] [--url PATH] [--vs BASE_URL] [--db-port N]`
 *
 * How fast any Worker could answer a single-row lookup in this runtime on this machine, beside how fast ours does.
 * On the perf dataset and the SQL proxy of `npm run bench:rest`, four Workers served as `npm start` serves ours,
 * each measured on the same URL (the perf kit's `/api/v1/blocks/{number}` unless `--url`) with bench.mjs:
 *   - `edge-mirror`: the real Worker, edge cache and rate limit off;
 *   - `neon-driver`: the route's statement through Neon's driver, the row returned as JSON, nothing else;
 *   - `raw-fetch`: the route's statement as one plain fetch in the driver's protocol, its answer returned as is;
 *   - `constant`: the real Worker's answer to the URL returned as a constant, no database.
 * All four are up at once and measured in turn, `--rounds` times (3; `--duration` seconds each, 8), and each figure is
 * the median of its rounds, so that the machine's drift falls on every Worker alike. With `--vs`, each run is side by side with that server (another mirror node on the same dataset: the reference run as
 * its container image runs it, on its own Node major; docs/performance.md) and the ratios are printed. Ends with one
 * table, a `floor:` line per Worker and how close the real Worker comes to the one running the driver alone.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { answerHelp } from '../common/cli-help.ts';
import { proxyTarget, startSqlProxy } from '../db/local/sql-proxy.ts';
import { optionValue } from './cli-option.ts';
import { freePort } from './local-stack/free-port.ts';
import { openPerfDatabase, PERF_DIR, requirePerfKit, requireServer, runPerfBench } from './local-stack/perf-dataset.ts';
import { stopsOnSignal } from './local-stack/stops.ts';
import { warmUp } from './local-stack/warm-up.ts';
import { REPO_ROOT, startWorkerProcess } from './local-stack/worker-process.ts';
import { loadAverage } from './process-cpu.ts';

const USAGE = `usage: npm run bench:floor [-- --duration S] [--rounds N] [--connections N] [--url PATH] [--vs BASE_URL]
  [--db-port N]

The real Worker beside three floor Workers (Neon's driver alone, one raw fetch, a constant answer) on one block
lookup of the perf dataset, measured in turn for --rounds rounds (medians); --vs measures each side by side with
another server (the reference, run as its image runs it: Node 24, pointed at the database --db-port serves). Ends
with floor: lines.`;
answerHelp(process.argv.slice(2), USAGE);

const args = process.argv.slice(2);
const option = (name: string): string | undefined => optionValue(args, name);
const duration = option('duration') ?? '8';
const connections = option('connections') ?? '16';
const vs = option('vs');
const dbPort = option('db-port') === undefined ? undefined : Number(option('db-port'));
const rounds = Number(option('rounds') ?? '3');
if (
  !(Number(duration) > 0) ||
  !(Number(connections) > 0) ||
  !(Number.isInteger(rounds) && rounds > 0) ||
  (vs !== undefined && !URL.canParse(vs)) ||
  (dbPort !== undefined && !(Number.isInteger(dbPort) && dbPort > 0 && dbPort < 65536))
) {
  console.error(
    `bench:floor: --duration, --connections and --rounds take positive numbers, --vs a base URL, --db-port a port\n\n${USAGE}`,
  );
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
  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(urlsFile, JSON.stringify([url]));

  const database = await openPerfDatabase(log, dbPort);
  stops.push(() => database.stop());
  if (vs) await requireServer('bench:floor', vs, url);
  const proxy = await startSqlProxy({ port: 0, targets: [proxyTarget(database.url, database.socketDir)] });
  stops.push(() => proxy.close());
  const vars = {
    DATABASE_URL: database.url,
    DB_LOCAL_PROXY: proxy.address,
    HIERO_MIRROR_REST_EDGE_CACHE_ENABLED: 'false',
    HIERO_MIRROR_REST_EDGE_RATELIMIT_ENABLED: 'false',
  };
  const loadAtStart = loadAverage();
  // Every Worker is up for the whole run and measured once per round, in turn: the machine's drift falls on all of
  // them alike, and each figure is the median of its rounds.
  const started: { name: string; does: string; baseUrl: string; rounds: { base: Figures; vs?: Figures }[] }[] = [];
  let body: string | undefined;
  for (const { name, entry, does } of WORKERS) {
    const worker = await startWorkerProcess({
      entry,
      port: await freePort(),
      cacheApi: false,
      vars: body === undefined ? vars : { ...vars, FLOOR_BODY: body },
      persistTo: path.join(OUT_DIR, `wrangler-state-${name}`),
      output: 'ignore',
    });
    stops.push(() => worker.stop());
    if (body === undefined) {
      const answer = await fetch(worker.baseUrl + url);
      body = await answer.text();
      if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}: ${body}`);
    }
    log(`${name} (${does}): ${worker.baseUrl}, warming up with ${WARM_UP_REQUESTS} requests`);
    await warmUp(worker.baseUrl, [url], Number(connections), WARM_UP_REQUESTS);
    started.push({ name, does, baseUrl: worker.baseUrl, rounds: [] });
  }
  for (let round = 1; round <= rounds; round++) {
    for (const worker of started) {
      log(`round ${round} of ${rounds}: ${worker.name}`);
      const report = path.join(OUT_DIR, `floor-${worker.name}.json`);
      await runPerfBench({ base: worker.baseUrl, vs, urlsFile, duration, connections, report });
      const [row] = (JSON.parse(readFileSync(report, 'utf8')) as { rows: { base: Figures; vs?: Figures }[] }).rows;
      if (!row) throw new Error(`bench.mjs wrote no row to ${report}`);
      worker.rounds.push(row);
    }
  }
  const results = started.map(({ name, does, rounds: measured }) => ({
    name,
    does,
    figures: medianFigures(measured.map((r) => r.base)),
    versus: vs ? medianFigures(measured.flatMap((r) => (r.vs ? [r.vs] : []))) : undefined,
    ratio: vs ? median(measured.map((r) => (r.vs?.rps ? r.base.rps / r.vs.rps : 0))) : undefined,
  }));
  console.log(
    `\n${url}, ${connections} connections, ${duration} s per Worker and round, ${rounds} rounds (medians); load average ${loadAtStart} at the start, ${loadAverage()} at the end\n`,
  );
  console.log(floorTable(results));
  for (const { name, figures, ratio } of results) {
    const versus = ratio === undefined ? '' : `, ${ratio.toFixed(2)}x ${vs}`;
    console.log(`floor: ${name} ${figures.rps.toFixed(0)} rps, p50 ${figures.p50} ms, p99 ${figures.p99} ms${versus}`);
  }
  const route = results.find((r) => r.name === 'edge-mirror');
  const driver = results.find((r) => r.name === 'neon-driver');
  if (route && driver) {
    const beside =
      route.ratio && driver.ratio
        ? `; ${((route.ratio / driver.ratio) * 100).toFixed(0)}% against the other server beside each`
        : '';
    console.log(
      `floor: edge-mirror makes ${((route.figures.rps / driver.figures.rps) * 100).toFixed(0)}% of the neon-driver Worker's rate${beside}`,
    );
  }
  await stopAll();
} catch (error) {
  await stopAll();
  console.error(`bench:floor failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Each figure's median over the rounds (non-2xx: their sum). */
function medianFigures(rounds: Figures[]): Figures {
  return {
    rps: median(rounds.map((f) => f.rps)),
    p50: median(rounds.map((f) => f.p50)),
    p99: median(rounds.map((f) => f.p99)),
    non2xx: rounds.reduce((sum, f) => sum + f.non2xx, 0),
  };
}

function floorTable(
  results: { name: string; does: string; figures: Figures; versus?: Figures; ratio?: number }[],
): string {
  const side = results.some((r) => r.versus);
  const head = ['Worker', 'what it does', 'rps', 'p50 ms', 'p99 ms', 'non-2xx'];
  if (side) head.push('other rps', 'other p50 ms', 'other p99 ms', 'rps × other');
  const lines = [`| ${head.join(' | ')} |`, `|---|---|${'---:|'.repeat(head.length - 2)}`];
  for (const { name, does, figures: f, versus: v, ratio } of results) {
    const cells = [name, does, f.rps.toFixed(0), String(f.p50), String(f.p99), String(f.non2xx)];
    if (v) cells.push(v.rps.toFixed(0), String(v.p50), String(v.p99), `${(ratio ?? 0).toFixed(2)}×`);
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}
