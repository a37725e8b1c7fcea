/**
 * `npm run bench:explorer [-- --delays 10,60,300] [--history 90] [--only RE]`
 *
 * How much of an explorer's traffic the edge answers. The stack `npm start` runs (scripts/bench-explorer/live-stack.ts:
 * its own embedded Postgres under .data/bench-explorer, the Worker with npm start's settings, the simulated network
 * and the ingest following it) for `--history` seconds and until the ledger holds a transaction of each common kind,
 * an account, tokens, an NFT, a topic and a contract; then the Hiero explorer's pages (scripts/bench-explorer/pages.ts: dashboard,
 * transactions, a transaction of each kind, an account with its tabs, a token, an NFT collection and an NFT, a topic,
 * a contract, blocks and a block) are loaded as one visitor, and each page again as a second visitor at the same
 * location `--delays` seconds after the first loaded it, while the network goes on. Per page and visitor: the
 * requests, the share answered at the edge (fresh or stale, from the Worker's request lines) and the database
 * statements (at the SQL proxy, background revalidations included). Ends with
 * `explorer: first A% edge, second visitor B% edge at 60 s, C statements per page` (C: the second visitor at 60 s).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startLiveStack } from './bench-explorer/live-stack.ts';
import { explorerPages, type Page } from './bench-explorer/pages.ts';
import { pickTargets } from './bench-explorer/targets.ts';
import { type PageResult, PageVisit, RequestLines } from './bench-explorer/visit.ts';
import { stopsOnSignal } from './local-stack/stops.ts';
import { answerHelp } from './local-stack/usage.ts';
import { REPO_ROOT } from './local-stack/worker-process.ts';

answerHelp(
  process.argv.slice(2),
  "usage: npm run bench:explorer [-- --delays 10,60,300] [--history 90] [--only RE]\n\nThe Hiero explorer's pages against the live local stack, as one visitor and then as a second visitor at the same\nlocation after each delay (seconds); per page the share answered at the edge and the database statements. Ends with\nexplorer: first A% edge, second visitor B% edge at 60 s, C statements per page.",
);

const { values } = parseArgs({
  options: {
    delays: { type: 'string', default: '10,60,300' },
    history: { type: 'string', default: '90' },
    only: { type: 'string' },
  },
});
/** Seconds of ledger the simulated network writes before the first visit: lists long enough to page. */
const historySeconds = Number(values.history);
const delays = (values.delays ?? '').split(',').map(Number);
if (delays.some((d) => !(d > 0)) || !(historySeconds >= 0)) {
  console.error('bench:explorer: --delays takes seconds, comma-separated (10,60,300); --history seconds (90)');
  process.exit(2);
}
const only = values.only === undefined ? undefined : new RegExp(values.only);
/** The delay the closing line reports. */
const REPORTED_DELAY = 60;
/** How long the ledger may take to hold every kind of target. */
const TARGETS_TIMEOUT_MS = 300_000;
/** After a page: the last request lines printed, revalidations it started finished. */
const SETTLE_MS = 400;

const log = (message: string) => console.error(`bench: ${message}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const { stops, stopAll } = stopsOnSignal();
const lines = new RequestLines();
try {
  log('starting the local stack (Postgres, Worker, simulated network, ingest)');
  const stack = await startLiveStack(path.join(REPO_ROOT, '.data/bench-explorer'), stops, (text) => lines.write(text));
  const started = Date.now();
  log(`the simulated network writes ${historySeconds} s of ledger first`);
  await sleep(historySeconds * 1000);
  let targets = await pickTargets(stack.databaseUrl);
  while (!targets) {
    if (Date.now() - started > TARGETS_TIMEOUT_MS)
      throw new Error('the ledger did not hold every target within 5 minutes');
    await sleep(3_000);
    targets = await pickTargets(stack.databaseUrl);
  }
  log(`ledger ready after ${Math.round((Date.now() - started) / 1000)} s: ${JSON.stringify(targets)}`);
  const pages = explorerPages(targets).filter((page) => !only || only.test(page.name));

  const visitOnce = async (page: Page): Promise<PageResult> => {
    const mark = lines.mark();
    const statementsBefore = stack.proxy.queries;
    const visit = new PageVisit(stack.baseUrl);
    await page.load(visit, targets);
    await sleep(SETTLE_MS);
    const own = lines.since(mark).filter((line) => line.cache !== 'revalidate');
    return {
      page: page.name,
      requests: visit.requests,
      edge: own.filter((line) => line.cache === 'hit' || line.cache === 'stale').length,
      statements: stack.proxy.queries - statementsBefore,
      statuses: visit.statuses,
    };
  };

  log(`first visitor: ${pages.length} pages`);
  const first: PageResult[] = [];
  const visitedAt: number[] = [];
  for (const page of pages) {
    visitedAt.push(Date.now());
    first.push(await visitOnce(page));
  }
  // Each page again, `delay` seconds after the first visitor loaded it, in time order.
  const events = delays
    .flatMap((delay) => pages.map((page, i) => ({ delay, page, i, at: (visitedAt[i] as number) + delay * 1000 })))
    .sort((a, b) => a.at - b.at);
  const second = new Map<number, PageResult[]>(delays.map((delay) => [delay, []]));
  const lateness: number[] = [];
  for (const event of events) {
    const wait = event.at - Date.now();
    if (wait > 0) await sleep(wait);
    lateness.push(Math.max(0, Date.now() - event.at));
    if (event.i === 0) log(`second visitor at ${event.delay} s`);
    second.get(event.delay)?.push(await visitOnce(event.page));
  }

  report(first, second, lateness);
} finally {
  await stopAll();
}

function report(first: PageResult[], second: Map<number, PageResult[]>, lateness: number[]): void {
  const share = (results: readonly PageResult[]) => {
    const requests = results.reduce((sum, r) => sum + r.requests, 0);
    return requests === 0 ? 0 : (100 * results.reduce((sum, r) => sum + r.edge, 0)) / requests;
  };
  const perPage = (results: readonly PageResult[]) =>
    results.reduce((sum, r) => sum + r.statements, 0) / Math.max(results.length, 1);
  const cell = (r: PageResult | undefined) => (r ? `${r.edge}/${r.requests} edge, ${r.statements} st` : '-');
  const header = ['page', 'first visitor', ...[...second.keys()].map((delay) => `second at ${delay} s`)];
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---').join('|')}|`);
  first.forEach((result, i) => {
    const row = [result.page, cell(result), ...[...second.values()].map((results) => cell(results[i]))];
    console.log(`| ${row.join(' | ')} |`);
  });
  const totals = ['all pages', `${share(first).toFixed(0)}% edge, ${perPage(first).toFixed(1)} st/page`];
  for (const results of second.values())
    totals.push(`${share(results).toFixed(0)}% edge, ${perPage(results).toFixed(1)} st/page`);
  console.log(`| ${totals.join(' | ')} |`);
  const statuses = new Map<number, number>();
  for (const r of first) for (const [status, n] of r.statuses) statuses.set(status, (statuses.get(status) ?? 0) + n);
  const late = lateness.length ? Math.max(...lateness) / 1000 : 0;
  log(
    `first visitor's answers by status: ${JSON.stringify(Object.fromEntries(statuses))}; second visits at most ${late.toFixed(1)} s late`,
  );
  const reported = second.get(REPORTED_DELAY) ?? [...second.values()][0] ?? [];
  console.log(
    `explorer: first ${share(first).toFixed(0)}% edge, second visitor ${share(reported).toFixed(0)}% edge at ${
      second.has(REPORTED_DELAY) ? REPORTED_DELAY : [...second.keys()][0]
    } s, ${perPage(reported).toFixed(1)} statements per page`,
  );
}
