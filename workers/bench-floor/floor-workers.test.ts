import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { proxyTarget, type SqlProxy, startSqlProxy } from '../../db/local/sql-proxy.ts';
import { freePort } from '../../scripts/local-stack/free-port.ts';
import { startWorkerProcess, type WorkerProcess } from '../../scripts/local-stack/worker-process.ts';
import { insertRecordFile } from '../../test/harness/factories-blocks.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';

// The floor Workers of `npm run bench:floor` do the work they claim: each database floor reads the block through
// the proxy (one statement per request), and the constant one answers what it was given without the database.

const HASH = 'c4'.repeat(48);
const BODY = '{"number":7}';

let db: TestDatabase;
let proxy: SqlProxy;
let state: string;
const workers: Record<string, WorkerProcess> = {};

beforeAll(async () => {
  db = await createTestDatabase();
  await insertRecordFile(db.sql, { index: 7n, consensus_start: 100n, consensus_end: 200n, hash: HASH });
  proxy = await startSqlProxy({ port: 0, targets: [proxyTarget(db.url, inject('pgSocketDir'))] });
  state = await mkdtemp(path.join(tmpdir(), 'edge-mirror-floor-'));
  for (const name of ['constant', 'raw-fetch', 'neon-driver']) {
    workers[name] = await startWorkerProcess({
      entry: `workers/bench-floor/${name}-worker.ts`,
      port: await freePort(),
      vars: { DATABASE_URL: db.url, DB_LOCAL_PROXY: proxy.address, FLOOR_BODY: BODY },
      persistTo: state,
      output: 'ignore',
    });
  }
}, 120_000);

afterAll(async () => {
  for (const worker of Object.values(workers)) await worker.stop();
  await proxy?.close();
  await db?.drop();
  if (state) await rm(state, { recursive: true, force: true });
});

/** The answer to GET /api/v1/blocks/7 and the statements it ran. */
async function ask(name: string) {
  const before = proxy.queries;
  const res = await fetch(`${workers[name]?.baseUrl}/api/v1/blocks/7`);
  return { status: res.status, text: await res.text(), statements: proxy.queries - before };
}

describe('the floor Workers', () => {
  it('raw-fetch: one statement, the proxy answer with the block row', async () => {
    const res = await ask('raw-fetch');
    expect(res).toMatchObject({ status: 200, statements: 1 });
    const answer = JSON.parse(res.text) as { rows: string[][] };
    expect(answer.rows).toHaveLength(1);
    expect(answer.rows[0]).toContain(HASH);
  });

  it("neon-driver: one statement through Neon's driver, the row as JSON", async () => {
    const res = await ask('neon-driver');
    expect(res).toMatchObject({ status: 200, statements: 1 });
    const row = JSON.parse(res.text) as unknown[];
    expect(row).toContain(HASH);
    expect(row).toContain('7');
  });

  it('constant: the body it was given, no statement', async () => {
    expect(await ask('constant')).toEqual({ status: 200, text: BODY, statements: 0 });
  });
});
