import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalPostgres, startLocalPostgres } from '../db/local/embedded-postgres.ts';
import { migrate } from '../db/migrate.ts';
import { freePort } from '../scripts/local-stack/free-port.ts';
import { startTestWorker, type TestWorker } from '../test/harness/test-worker.ts';

/**
 * A database that cannot be reached: reads answer the reference's 503 (its `DbError`), contract calls the web3
 * module's 503, the health routes what they always say, and all answer again once it is back, nothing restarted.
 * The test's own Postgres, since it is stopped halfway.
 */

let dir: string;
let port: number;
let postgres: LocalPostgres | undefined;
let worker: TestWorker;

const startPostgres = async () => {
  postgres = await startLocalPostgres({ dir, port, database: 'mirror_node' });
  return postgres;
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'edge-mirror-outage-'));
  port = await freePort();
  const { url } = await startPostgres();
  await migrate(url);
  worker = await startTestWorker(url, { captureLog: true });
  await worker.setState({ config: { edge: { cache: { enabled: false }, rateLimit: { enabled: false } } } });
}, 180_000);

afterAll(async () => {
  await worker?.stop();
  await postgres?.stop();
  await rm(dir, { recursive: true, force: true });
});

const call = async () => {
  const response = await fetch(`${worker.baseUrl}/api/v1/contracts/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ to: '0x00000000000000000000000000000000000004e2', data: '0x' }),
  });
  return { status: response.status, body: await response.json() };
};

interface FailureLine {
  msg: string;
  level: string;
  path: string;
  status: number;
  error: string;
  cause?: string;
  stack?: string;
  repeated?: number;
  summary?: string;
}

const failureLines = () =>
  worker.log
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"request failed"'))
    .map((line) => JSON.parse(line) as FailureLine);

describe('a database that cannot be reached', () => {
  it('answers 200 while the database is up', async () => {
    expect((await worker.get('/api/v1/blocks')).status).toBe(200);
    expect(await worker.get('/health/readiness')).toMatchObject({ status: 503 });
  });

  it('answers 503 with the reference body while it is stopped', async () => {
    await postgres?.stop();
    postgres = undefined;
    expect(await worker.get('/api/v1/blocks')).toMatchObject({
      status: 503,
      body: { _status: { messages: [{ message: 'Service unavailable' }] } },
    });
    expect(await worker.get('/api/v1/accounts/0.0.2')).toMatchObject({ status: 503 });
    expect(await call()).toEqual({
      status: 503,
      body: { _status: { messages: [{ message: 'Service Unavailable', detail: '', data: '' }] } },
    });
    expect(await worker.get('/health/readiness')).toMatchObject({
      status: 503,
      body: { status: 'error', error: { message: 'Database is unreachable' } },
    });
    expect((await worker.get('/health/liveness')).status).toBe(200);
  });

  it('logs one line per failure with its level and cause, from inside the EVM executor too, holding repeats back', async () => {
    for (let i = 0; i < 5; i++) expect((await worker.get('/api/v1/blocks')).status).toBe(503);
    for (let i = 0; i < 3; i++) expect((await call()).status).toBe(503);
    const lines = failureLines();
    // The two failures: a read's, and a contract call's with the database error inside the executor as its cause.
    expect(lines).toEqual([
      {
        msg: 'request failed',
        level: 'warn',
        method: 'GET',
        path: '/api/v1/blocks',
        status: 503,
        error: expect.stringMatching(/^DatabaseError: database statement failed: \S/),
      },
      {
        msg: 'request failed',
        level: 'warn',
        method: 'POST',
        path: '/api/v1/contracts/call',
        status: 503,
        error: 'ApiError: Service Unavailable',
        cause: expect.stringMatching(/^DatabaseError: database statement failed: \S/),
      },
    ]);
    for (const line of lines) expect(JSON.stringify(line)).not.toContain('\\n');
  });

  it('says how many more failed alike once the ten-second window is over', async () => {
    const before = failureLines().length;
    await new Promise((resolve) => setTimeout(resolve, 10_500));
    expect((await worker.get('/api/v1/blocks')).status).toBe(503);
    const [summary, read] = failureLines().slice(before);
    // The calls' summary, written after the next request, and the next read failure with the count of the last 10 s.
    expect(summary).toMatchObject({ path: '/api/v1/contracts/call', repeated: 3 });
    expect(summary?.summary).toMatch(/^3 more like this in the last 1\d s$/);
    expect(read).toMatchObject({ path: '/api/v1/blocks', level: 'warn', repeated: 6 });
    expect(read?.summary).toMatch(/^6 more like this in the last 1\d s$/);
  }, 30_000);

  it('answers 200 again once it is back, nothing restarted', async () => {
    await startPostgres();
    expect((await worker.get('/api/v1/blocks')).status).toBe(200);
    expect((await call()).status).toBe(400);
  });
});
