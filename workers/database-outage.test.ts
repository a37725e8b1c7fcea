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

const failedRequests = () =>
  worker.log
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"request failed"'))
    .map((line) => JSON.parse(line) as { url: string; error: string; cause?: string });

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

  it('logs the cause of every 503, from inside the EVM executor too', async () => {
    const failures = failedRequests();
    const blocks = failures.find((line) => line.url.endsWith('/api/v1/blocks'));
    expect(blocks?.error).toMatch(/^DatabaseError: database statement failed: .*\n\s+at /);
    const contractCall = failures.find((line) => line.url.endsWith('/api/v1/contracts/call'));
    expect(contractCall?.cause).toMatch(/^DatabaseError: database statement failed: .*\n\s+at /);
    expect(contractCall?.cause).toContain('EvmExecutor.call');
  });

  it('answers 200 again once it is back, nothing restarted', async () => {
    await startPostgres();
    expect((await worker.get('/api/v1/blocks')).status).toBe(200);
    expect((await call()).status).toBe(400);
  });
});
