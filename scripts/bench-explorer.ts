/**
 * `npm run bench:explorer [-- --delays 10,60,300] [--history 90] [--only RE]`
 *
 * How much of an explorer's traffic the edge answers. The stack `npm start` runs (scripts/bench-explorer/live-stack.ts:
 * its own embedded Postgres under .data/bench-explorer, the Worker with npm start's settings, the simulated network
 * and the ingest following it) for `--history` seconds and until the ledger holds a transaction of each common kind,
 * an account, tokens, an NFT, a topic and a contract; then the Hiero explorer's pages (scripts/bench-explorer/pages.ts: dashboard,
 * transactions, a transaction of each kind, an account with its tabs, a token, an NFT collection and an NFT, a topic,
 * a contract, blocks and a block) are loaded as one visitor, and each page again as a second visitor at the same
 * location `--delays` seconds after the first loaded it, while the network goes on: one location (a Worker whose
 * edge cache starts empty) per delay, so that no second visitor's figure includes another's. Per page and visitor: the
 * requests, the share answered at the edge (fresh or stale, from the Worker's request lines) and the database
 * statements (at the SQL proxy, background revalidations included). Ends with
 * `explorer: first A% edge, second visitor B% edge at 60 s, C statements per page` (C: the second visitor at 60 s).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { answerHelp } from '../common/cli-help.ts';
import { startLiveStack } from './bench-explorer/live-stack.ts';
import { explorerPages, type Page } from './bench-explorer/pages.ts';
import { pickTargets } from './bench-explorer/targets.ts';
import { type PageResult, PageVisit, RequestLines } from './bench-explorer/visit.ts';
import { stopsOnSignal } from './local-stack/stops.ts';
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
try {
  log('starting the local stack (Postgres, simulated network, ingest)');
  const stack = await startLiveStack(path.join(REPO_ROOT, '.data/bench-explorer'), stops);
  const started = Date.now();
  log(`the simulated network writes ${historySeconds} s of ledger first`);
  await sleep(historySeconds * 1000);
  let targets = await pickTargets(stack.databaseUrl);
  while (!targets) {
    if (Date.now() - started > historySeconds * 1000 + TARGETS_TIMEOUT_MS) {
      throw new Error('the ledger did not hold every target within 5 minutes');
    }
    await sleep(3_000);
    targets = await pickTargets(stack.databaseUrl);
  }
  log(`ledger ready after ${Math.round((Date.now() - started) / 1000)} s: ${JSON.stringify(targets)}`);
  const pages = explorerPages(targets).filter((page) => !only || only.test(page.name));

  // One location per delay, its edge cache empty at first: a second visitor's figure is not the earlier ones'.
  const experiments: Experiment[] = [];
  for (const delay of delays) {
    const lines = new RequestLines();
    const worker = await stack.startWorker((text) => lines.write(text));
    const visitOnce = async (page: Page): Promise<PageResult> => {
      const mark = lines.mark();
      const statementsBefore = stack.proxy.queries;
      const visit = new PageVisit(worker.baseUrl);
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
    log(`a new location: the first visitor's ${pages.length} pages, each again ${delay} s later`);
    const experiment: Experiment = { delay, first: [], second: [], lateness: 0 };
    const visitedAt: number[] = [];
    for (const page of pages) {
      visitedAt.push(Date.now());
      experiment.first.push(await visitOnce(page));
    }
    for (const [i, page] of pages.entries()) {
      const at = (visitedAt[i] as number) + delay * 1000;
      if (at > Date.now()) await sleep(at - Date.now());
      experiment.lateness = Math.max(experiment.lateness, Date.now() - at);
      experiment.second.push(await visitOnce(page));
    }
    await worker.stop();
    experiments.push(experiment);
  }
  report(experiments);
} finally {
  await stopAll();
}

interface Experiment {
  delay: number;
  first: PageResult[];
  second: PageResult[];
  /** Milliseconds the second visits started after their time, at most. */
  lateness: number;
}

function report(experiments: readonly Experiment[]): void {
  const share = (results: readonly PageResult[]) => {
    const requests = results.reduce((sum, r) => sum + r.requests, 0);
    return requests === 0 ? 0 : (100 * results.reduce((sum, r) => sum + r.edge, 0)) / requests;
  };
  const perPage = (results: readonly PageResult[]) =>
    results.reduce((sum, r) => sum + r.statements, 0) / Math.max(results.length, 1);
  const cell = (r: PageResult | undefined) => (r ? `${r.edge}/${r.requests} edge, ${r.statements} st` : '-');
  const header = ['page', ...experiments.flatMap(({ delay }) => [`first (${delay} s run)`, `second at ${delay} s`])];
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---').join('|')}|`);
  experiments[0]?.first.forEach((result, i) => {
    const row = [result.page, ...experiments.flatMap(({ first, second }) => [cell(first[i]), cell(second[i])])];
    console.log(`| ${row.join(' | ')} |`);
  });
  const total = (results: readonly PageResult[]) =>
    `${share(results).toFixed(0)}% edge, ${perPage(results).toFixed(1)} st/page`;
  const totals = ['all pages', ...experiments.flatMap(({ first, second }) => [total(first), total(second)])];
  console.log(`| ${totals.join(' | ')} |`);
  const firsts = experiments.flatMap(({ first }) => first);
  const statuses = new Map<number, number>();
  for (const r of firsts) for (const [status, n] of r.statuses) statuses.set(status, (statuses.get(status) ?? 0) + n);
  const late = Math.max(0, ...experiments.map(({ lateness }) => lateness)) / 1000;
  log(
    `first visitors' answers by status: ${JSON.stringify(Object.fromEntries(statuses))}; second visits at most ${late.toFixed(1)} s late`,
  );
  const reported = experiments.find(({ delay }) => delay === REPORTED_DELAY) ?? experiments[0];
  console.log(
    `explorer: first ${share(firsts).toFixed(0)}% edge, second visitor ${share(reported?.second ?? []).toFixed(0)}% edge at ${
      reported?.delay ?? REPORTED_DELAY
    } s, ${perPage(reported?.second ?? []).toFixed(1)} statements per page`,
  );
}
