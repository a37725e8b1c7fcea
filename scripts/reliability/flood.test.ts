import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { proxyTarget, type SqlProxy, startSqlProxy } from '../../db/local/sql-proxy.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { RATE_LIMITER_SHARDS } from '../../workers/durable/rate-limiter-shard.ts';
import { freePort } from '../local-stack/free-port.ts';
import { startWorkerProcess, type WorkerProcess } from '../local-stack/worker-process.ts';
import { countRateLimiterObjects, floodWithInventedKeys } from './flood.ts';

let db: TestDatabase;
let proxy: SqlProxy;
let worker: WorkerProcess;
let state: string;

// The deployed entry with its own state directory, so the objects it makes can be counted.
beforeAll(async () => {
  db = await createTestDatabase();
  proxy = await startSqlProxy({ port: 0, targets: [proxyTarget(db.url, inject('pgSocketDir'))] });
  state = await mkdtemp(path.join(tmpdir(), 'edge-mirror-flood-'));
  worker = await startWorkerProcess({
    port: await freePort(),
    vars: {
      DATABASE_URL: db.url,
      DB_LOCAL_PROXY: proxy.address,
      HIERO_MIRROR_REST_EDGE_RATELIMIT_READS_RATE: '5',
      HIERO_MIRROR_REST_EDGE_RATELIMIT_READS_BURST: '100',
    },
    persistTo: state,
    output: 'ignore',
  });
});

afterAll(async () => {
  await worker?.stop();
  await proxy?.close();
  await db?.drop();
  if (state) await rm(state, { recursive: true, force: true });
});

describe('a flood of requests with invented API keys from one address', () => {
  it('gets 429 once the address bucket is empty, never a 5xx, and makes no object per key', async () => {
    const result = await floodWithInventedKeys({ baseUrl: worker.baseUrl, requests: 600, address: '198.51.100.7' });
    expect([...result.byStatus.keys()].sort()).toEqual([200, 429]);
    // The burst of 100, and what 5 tokens a second add while the flood lasts.
    expect(result.byStatus.get(200)).toBeGreaterThanOrEqual(100);
    expect(result.byStatus.get(200)).toBeLessThan(200);
    expect(result.firstLimited).toBeGreaterThanOrEqual(100);
    expect(countRateLimiterObjects(state)).toBe(1);
  });

  it('keeps other addresses in their own buckets, in at most the fixed number of objects', async () => {
    for (let i = 0; i < 100; i++) {
      const res = await fetch(`${worker.baseUrl}/api/v1/transactions?timestamp=lt:${1_600_000_000 + i}`, {
        headers: { 'cf-connecting-ip': `198.51.100.${100 + i}` },
      });
      expect(res.status).toBe(200);
    }
    expect(countRateLimiterObjects(state)).toBeGreaterThan(1);
    expect(countRateLimiterObjects(state)).toBeLessThanOrEqual(RATE_LIMITER_SHARDS);
  });
});
