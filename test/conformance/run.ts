/**
 * `npm run conformance [-- --cases DIR] [--filter RE] [--ratchet] [--update-ratchet] [runner options]`
 *
 * Starts an isolated stack (its own embedded Postgres on a free port, freshly migrated; the WebSocket proxy; the
 * Worker in workerd with its test entry), runs the kit's runner against it with our hook, and prints the runner's
 * summary line last. `--ratchet` fails when a case listed in test/conformance/passing.txt no longer passes;
 * `--update-ratchet` adds the cases that pass now to that list (it only grows).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { answerHelp } from '../../common/cli-help.ts';
import { startLocalPostgres } from '../../db/local/embedded-postgres.ts';
import { proxyTarget, startSqlProxy } from '../../db/local/sql-proxy.ts';
import { migrate } from '../../db/migrate.ts';
import { freePort } from '../../scripts/local-stack/free-port.ts';
import { REPO_ROOT, startWorkerProcess } from '../../scripts/local-stack/worker-process.ts';
import { sharedDir } from '../harness/shared-dir.ts';

answerHelp(
  process.argv.slice(2),
  `usage: npm run conformance [-- --cases DIR] [--filter RE] [--ratchet] [--update-ratchet] [runner options]\n\nRuns the reference's conformance kit against an isolated stack (its own Postgres, the Worker in workerd); prints\nN passed, M failed last. --ratchet fails when a case of test/conformance/passing.txt fails; --update-ratchet adds\nthe cases that pass now.`,
);

const RATCHET_FILE = path.join(REPO_ROOT, 'test/conformance/passing.txt');
// Per run, so that several runs (one per engineer) can share a machine.
const RUN_DIR = path.join(REPO_ROOT, '.data/conformance', String(process.pid));
const jsonIndex = process.argv.indexOf('--json');
const REPORT_FILE =
  jsonIndex >= 0 ? path.resolve(process.argv[jsonIndex + 1] ?? '') : path.join(RUN_DIR, 'report.json');
const KIT_DIR = path.join(sharedDir(), 'conformance');

const args = process.argv.slice(2);
const ratchet = takeFlag('--ratchet');
const updateRatchet = takeFlag('--update-ratchet');
const casesIndex = args.indexOf('--cases');
const casesDir = casesIndex >= 0 ? path.resolve(args[casesIndex + 1] ?? '') : path.join(KIT_DIR, 'cases');
const baselinePath = [path.join(casesDir, '../baseline-config.json'), path.join(KIT_DIR, 'baseline-config.json')].find(
  (p) => existsSync(p),
);
if (!baselinePath) fail(`no baseline-config.json beside ${casesDir} or in ${KIT_DIR}`);

function takeFlag(flag: string): boolean {
  const at = args.indexOf(flag);
  if (at >= 0) args.splice(at, 1);
  return at >= 0;
}

function fail(message: string): never {
  console.error(`conformance: ${message}`);
  process.exit(2);
}

const log = (message: string) => console.error(`conformance: ${message}`);

const database = await startLocalPostgres({
  dir: path.join(RUN_DIR, 'pg'),
  port: await freePort(),
  database: 'postgres',
});
const stops: (() => Promise<void>)[] = [() => rm(RUN_DIR, { recursive: true, force: true }), () => database.stop()];
const stopAll = async () => {
  for (const stop of stops.reverse()) await stop().catch(() => {});
};
// embedded-postgres's own signal hooks would exit before the Worker is stopped: handle signals here.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.removeAllListeners(signal);
  process.on(signal, () => void stopAll().then(() => process.exit(130)));
}

try {
  const url = await recreateDatabase(database.url, 'conformance');
  await migrate(url);
  const proxy = await startSqlProxy({ port: 0, targets: [proxyTarget(database.url, database.socketDir)] });
  stops.push(() => proxy.close());
  const worker = await startWorkerProcess({
    entry: 'workers/testing/entry.ts',
    port: await freePort(),
    vars: { DATABASE_URL: url, DB_LOCAL_PROXY: proxy.address },
    persistTo: path.join(RUN_DIR, 'wrangler-state'),
    output: 'ignore',
  });
  stops.push(() => worker.stop());
  log(`stack up: Worker ${worker.baseUrl}, database ${url}`);

  const runnerArgs = [
    path.join(KIT_DIR, 'run.mjs'),
    '--db',
    url,
    '--base',
    worker.baseUrl,
    '--hook',
    `"${process.execPath}" "${path.join(REPO_ROOT, 'test/conformance/hook.mjs')}"`,
    ...(jsonIndex >= 0 ? [] : ['--json', REPORT_FILE]),
    ...args,
  ];
  const summary = await runRunner(runnerArgs, {
    EDGE_MIRROR_TEST_BASE: worker.baseUrl,
    EDGE_MIRROR_BASELINE_CONFIG: baselinePath,
  });
  const passed = passedCases();
  let regressions: string[] = [];
  if (ratchet || updateRatchet) {
    const listed = readRatchet();
    const selected = new Set(allCaseIds());
    regressions = listed.filter((id) => selected.has(id) && !passed.has(id));
    if (updateRatchet) {
      const merged = [...new Set([...listed, ...passed])].sort();
      writeFileSync(RATCHET_FILE, `${merged.join('\n')}\n`);
      log(`ratchet: ${merged.length} cases listed (${merged.length - listed.length} new)`);
    }
    for (const id of regressions) console.log(`REGRESSION ${id}: passed before, fails now`);
  }
  await stopAll();
  console.log(summary);
  process.exit(regressions.length > 0 ? 1 : 0);
} catch (error) {
  await stopAll();
  fail(error instanceof Error ? (error.stack ?? error.message) : String(error));
}

async function recreateDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs the kit's runner, passing its output through, and returns its summary line. */
function runRunner(runnerArgs: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, runnerArgs, {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    });
    let summary = '';
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (/^\d+ passed, \d+ failed/.test(line)) summary = line;
        else console.log(line);
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (pending) console.log(pending);
      if (code !== 0 || !summary) reject(new Error(`the runner exited with ${code}`));
      else resolve(summary);
    });
  });
}

function passedCases(): Set<string> {
  const report = JSON.parse(readFileSync(REPORT_FILE, 'utf8')) as { cases: { id: string; result: string }[] };
  return new Set(report.cases.filter((c) => c.result === 'passed').map((c) => c.id));
}

function allCaseIds(): string[] {
  const report = JSON.parse(readFileSync(REPORT_FILE, 'utf8')) as { cases: { id: string }[] };
  return report.cases.map((c) => c.id);
}

function readRatchet(): string[] {
  if (!existsSync(RATCHET_FILE)) return [];
  return readFileSync(RATCHET_FILE, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
}
