/**
 * No final answer is ever wrong (docs/adr/0045-final-answers-at-the-edge.md). A live simulated network writes a
 * record file every 2 s and the ingest follows it into the test database; every few seconds the Worker (edge
 * cache off: every answer is a fresh database read) is asked the URLs of every route family (final-urls.ts), and
 * each answer marked final (`immutable`) is asked again in every later round, after the ingest has written more
 * files: its status and body must never change. `STALENESS_SECONDS` sets how long it runs (default 120).
 *
 * The transaction windows are shortened (consensus 20 s, schedules 60 s) so that transactions by id settle within
 * the run; the rules depend on the windows only through their lengths.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimulatorProcess, startSimulatorProcess } from '../../scripts/local-stack/simulator-process.ts';
import { stopChild } from '../../scripts/local-stack/stop-child.ts';
import { REPO_ROOT } from '../../scripts/local-stack/worker-process.ts';
import { registerWorkerSuite } from '../harness/worker-suite.ts';
import { familyUrls } from './final-urls.ts';

const SECONDS = Number(process.env.STALENESS_SECONDS ?? 120);
const ROUND_MS = 4_000;
const out = mkdtempSync(path.join(tmpdir(), 'staleness-'));
let simulator: SimulatorProcess | undefined;
let ingest: ChildProcess | undefined;

const { db, worker } = registerWorkerSuite({
  async seed(db) {
    simulator = await startSimulatorProcess({ out, tps: 30, output: 'ignore' });
    ingest = spawn(
      process.execPath,
      [path.join(REPO_ROOT, 'ingest/main.ts'), '--source', out, '--address-book', simulator.addressBook],
      { cwd: REPO_ROOT, stdio: 'ignore', env: { ...process.env, DATABASE_URL: db.url } },
    );
    // A few files first, so the first round has every family to ask.
    for (let waited = 0; waited < 60_000; waited += 1_000) {
      const { rows } = await db.sql.query('select count(*)::int as n from record_file');
      if ((rows[0]?.n ?? 0) >= 8) break;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  },
  timeout: 180_000,
});

beforeAll(async () => {
  await worker.setState({
    config: {
      edge: { cache: { enabled: false }, rateLimit: { enabled: false } },
      query: { maxTransactionConsensusTimestampRange: '20s', maxScheduledTransactionConsensusTimestampRange: '60s' },
    },
  });
});

afterAll(async () => {
  if (ingest) await stopChild(ingest);
  await simulator?.stop();
  rmSync(out, { recursive: true, force: true });
});

interface Answer {
  family: string;
  status: number;
  body: string;
  /** The newest record file when it was first answered. */
  block: number;
}

describe('final answers over a live simulated network', () => {
  it(
    'answer every later fresh read with the same status and body, in every route family',
    async () => {
      const finals = new Map<string, Answer>();
      const rechecked = new Map<string, number>();
      const changed: string[] = [];
      const newestBlock = async () =>
        Number((await db.sql.query('select coalesce(max(index), -1)::int as n from record_file')).rows[0]?.n);
      const ends = Date.now() + SECONDS * 1000;
      while (Date.now() < ends) {
        const block = await newestBlock();
        for (const [url, answer] of finals) {
          if (answer.block >= block) continue;
          const res = await fetch(worker.baseUrl + url);
          const body = await res.text();
          if (res.status !== answer.status || body !== answer.body) {
            changed.push(`${url}: was ${answer.status} ${answer.body}\nnow ${res.status} ${body}`);
          }
          rechecked.set(answer.family, (rechecked.get(answer.family) ?? 0) + 1);
        }
        for (const { family, url } of await familyUrls(db.sql)) {
          if (finals.has(url)) continue;
          const res = await fetch(worker.baseUrl + url);
          const body = await res.text();
          if (res.headers.get('cache-control')?.includes('immutable')) {
            finals.set(url, { family, status: res.status, body, block });
          }
        }
        await new Promise((resolve) => setTimeout(resolve, ROUND_MS));
      }
      expect(changed).toEqual([]);
      const families = new Set([...finals.values()].map((answer) => answer.family));
      const expected = [
        'blocks',
        'transactions',
        'transaction',
        'contract results',
        'contract logs',
        'topic messages',
        'network files',
        'not found',
      ];
      expect([...families].sort()).toEqual([...expected].sort());
      for (const family of expected) expect(rechecked.get(family) ?? 0, family).toBeGreaterThan(0);
    },
    (SECONDS + 120) * 1000,
  );
});
