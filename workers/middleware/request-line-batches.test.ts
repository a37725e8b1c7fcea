import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { proxyTarget, type SqlProxy, startSqlProxy } from '../../db/local/sql-proxy.ts';
import { freePort } from '../../scripts/local-stack/free-port.ts';
import { startWorkerProcess, type WorkerProcess } from '../../scripts/local-stack/worker-process.ts';
import { insertRecordFile } from '../../test/harness/factories-blocks.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';

// The local stack writes request lines in batches (docs/adr/0055): in the Worker's real runtime every request still
// gets its line, whole, and no answer waits for its line to be written.

let db: TestDatabase;
let proxy: SqlProxy;
let state: string;
let worker: WorkerProcess;
let output = '';

beforeAll(async () => {
  db = await createTestDatabase();
  await insertRecordFile(db.sql, { index: 7n, consensus_start: 100n, consensus_end: 200n, hash: 'c4'.repeat(48) });
  proxy = await startSqlProxy({ port: 0, targets: [proxyTarget(db.url, inject('pgSocketDir'))] });
  state = await mkdtemp(path.join(tmpdir(), 'edge-mirror-lines-'));
  worker = await startWorkerProcess({
    port: await freePort(),
    vars: { DATABASE_URL: db.url, DB_LOCAL_PROXY: proxy.address, HIERO_MIRROR_REST_EDGE_CACHE_ENABLED: 'false' },
    persistTo: state,
    output: (text) => {
      output += text;
    },
  });
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await proxy?.close();
  await db?.drop();
  if (state) await rm(state, { recursive: true, force: true });
});

it('writes one whole JSON line for every request of a burst, and nothing else', async () => {
  const paths = Array.from({ length: 40 }, (_, i) => (i % 2 ? '/api/v1/blocks/7' : `/api/v1/blocks/${1000 + i}`));
  const answers = await Promise.all(paths.map((p) => fetch(worker.baseUrl + p)));
  expect(answers.map((a) => a.status).sort()).toEqual([...Array(20).fill(200), ...Array(20).fill(404)]);
  const requestLines = () =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{"msg":"request"'))
      .map((line) => JSON.parse(line) as { path: string; status: number });
  for (let waited = 0; requestLines().length < paths.length && waited < 5_000; waited += 50)
    await new Promise((resolve) => setTimeout(resolve, 50));
  expect(
    requestLines()
      .map((line) => line.path)
      .sort(),
  ).toEqual([...paths].sort());
  expect(requestLines().filter((line) => line.status === 404)).toHaveLength(20);
  // No warning from the runtime (a promise settled across requests, a waitUntil cut short).
  expect(output.split('\n').filter((line) => line.trim() && !line.startsWith('{"msg":"request"'))).toEqual([]);
});
