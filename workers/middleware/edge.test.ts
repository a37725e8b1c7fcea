import { describe, expect, it } from 'vitest';
import { insertRow, insertTransaction, ns } from '../../test/harness/factories.ts';
import { registerWorkerSuite } from '../../test/harness/worker-suite.ts';

const PATH = '/api/v1/transactions/0.0.1001-1700000000-000000001';

const { db, worker } = registerWorkerSuite({
  seed: async (db) => {
    await insertTransaction(db.sql, {
      consensus_timestamp: ns('1700000000.000000005'),
      payer_account_id: 1001n,
      valid_start_ns: ns('1700000000.000000001'),
    });
  },
});

describe('edge cache', () => {
  it('answers a repeated request within max-age from the cache, without a database query', async () => {
    await worker.setState({});
    const first = await worker.get(PATH);
    expect(first.status).toBe(200);
    // The store happens after the response is sent (waitUntil): give it a moment.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const queries = worker.dbQueries;
    const second = await worker.get(PATH);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(worker.dbQueries).toBe(queries);
  });

  it('answers a query spelled another way from the same entry, without a database query', async () => {
    await worker.setState({});
    const list = '/api/v1/transactions?limit=1&order=desc&timestamp=lte:1700000001';
    const first = await worker.get(list);
    expect(first.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const queries = worker.dbQueries;
    for (const spelling of [list, list.replace('desc', '%64esc'), list.replace(':', '%3a')]) {
      const again = await worker.get(spelling);
      expect(again.body).toEqual(first.body);
    }
    expect(worker.dbQueries).toBe(queries);
  });

  it('serves every repeated request the same bytes, from either tier, before routing or not', async () => {
    const memory = 16 * 1024 * 1024;
    // A Cache API hit carries CF-Cache-Status; the memory tier answers with the bytes the Worker made.
    for (const [edge, cacheStatus] of [
      [{ cache: { memoryBytes: memory } }, null],
      [{ cache: { memoryBytes: memory }, rateLimit: { enabled: false } }, null],
      [{ cache: { memoryBytes: 0 } }, 'HIT'],
    ] as const) {
      await worker.setState({ config: { edge } });
      const first = await worker.get(PATH);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const queries = worker.dbQueries;
      for (let i = 0; i < 3; i++) {
        const again = await worker.get(PATH);
        expect(again.body).toEqual(first.body);
        // The Cache API adds its own (Age, CF-Cache-Status); the app's headers are those it made the first time.
        const own = (headers: Headers) =>
          ['access-control-allow-origin', 'cache-control', 'content-type', 'etag', 'link'].map((n) => headers.get(n));
        expect(own(again.headers)).toEqual(own(first.headers));
        expect(again.headers.get('cf-cache-status')).toBe(cacheStatus);
      }
      const etag = first.headers.get('etag') ?? '';
      const notModified = await fetch(worker.baseUrl + PATH, { headers: { 'if-none-match': etag } });
      expect(notModified.status).toBe(304);
      expect(notModified.headers.get('access-control-allow-origin')).toBe('*');
      expect(worker.dbQueries).toBe(queries);
    }
  });

  it('answers If-None-Match with the current ETag by 304 without a body', async () => {
    const first = await worker.get(PATH);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[\w-]+"$/);
    const res = await fetch(worker.baseUrl + PATH, { headers: { 'if-none-match': `W/"x", ${etag}` } });
    expect(res.status).toBe(304);
    expect(await res.text()).toBe('');
    expect(res.headers.get('etag')).toBe(etag);
    const other = await fetch(worker.baseUrl + PATH, { headers: { 'if-none-match': '"stale"' } });
    expect(other.status).toBe(200);
  });

  it('tags answers that are not JSON too, with the cache on or off', async () => {
    const SUPPLY = '/api/v1/network/supply?q=totalcoins';
    // the supply needs the balance of one unreleased supply account (0.0.2)
    await insertRow(db.sql, 'entity', {
      id: 2,
      num: 2,
      realm: 0,
      shard: 0,
      type: 'ACCOUNT',
      balance: 1_000_000n,
      balance_timestamp: ns('1700000000'),
      timestamp_range: '[1,)',
    });
    for (const enabled of [false, true]) {
      await worker.setState({ config: { edge: { cache: { enabled } } } });
      const res = await fetch(worker.baseUrl + SUPPLY);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('cache-control')).toBe('public, max-age=60');
      const etag = res.headers.get('etag') ?? '';
      expect(etag).toMatch(/^"[\w-]+"$/);
      const notModified = await fetch(worker.baseUrl + SUPPLY, { headers: { 'if-none-match': etag } });
      expect(notModified.status).toBe(304);
    }
    await worker.setState({});
  });

  it('never stores an error response', async () => {
    await worker.setState({});
    const missing = '/api/v1/transactions/0.0.1001-1700000100-000000001';
    expect((await worker.get(missing)).status).toBe(404);
    await insertTransaction(db.sql, {
      consensus_timestamp: ns('1700000100.000000005'),
      payer_account_id: 1001n,
      valid_start_ns: ns('1700000100.000000001'),
    });
    const after = await worker.get(missing);
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBeNull();
    const invalid = await worker.get(`${PATH}?nonce=x`);
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('etag')).toBeNull();
  });

  it('answers HEAD like GET without a body, and allows any origin', async () => {
    const res = await fetch(worker.baseUrl + PATH, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    expect(res.headers.get('cache-control')).toBe('public, max-age=600');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('does not cache when switched off, and still answers with an ETag, a Date and 304s', async () => {
    await worker.setState({ config: { edge: { cache: { enabled: false } } } });
    const first = await worker.get(PATH);
    const queries = worker.dbQueries;
    const second = await worker.get(PATH);
    expect(worker.dbQueries).toBe(queries + 1);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(second.headers.get('etag')).toBe(etag);
    expect(Date.parse(second.headers.get('date') ?? '')).toBeGreaterThan(0);
    const notModified = await fetch(worker.baseUrl + PATH, { headers: { 'if-none-match': etag } });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe('');
    expect(notModified.headers.get('etag')).toBe(etag);
    expect(notModified.headers.get('access-control-allow-origin')).toBe('*');
    await worker.setState({});
  });
});

/** Settings that send every request to the limiter: with the edge cache on, only misses reach it. */
const limitEveryRequest = (reads: { rate: number; burst: number }, more: object = {}) => ({
  config: { edge: { cache: { enabled: false }, rateLimit: { reads, ...more } } },
});

describe('rate limiting', () => {
  it('answers a burst over the limit with 429 and Retry-After, and lets the client in again once refilled', async () => {
    await worker.setState(limitEveryRequest({ rate: 1, burst: 2 }));
    const client = { 'cf-connecting-ip': '203.0.113.7' };
    expect((await worker.get(PATH, client)).status).toBe(200);
    expect((await worker.get(PATH, client)).status).toBe(200);
    const refused = await worker.get(PATH, client);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body).toEqual({ _status: { messages: [{ message: 'Requests per second rate limit exceeded.' }] } });
    // Another client has its own bucket.
    expect((await worker.get(PATH, { 'cf-connecting-ip': '203.0.113.8' })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await worker.get(PATH, client)).status).toBe(200);
    await worker.setState({});
  });

  it('counts requests with invented API keys in the bucket of their address', async () => {
    await worker.setState(limitEveryRequest({ rate: 0.1, burst: 5 }));
    const statuses = [];
    for (let i = 0; i < 8; i++) {
      const res = await worker.get(PATH, { 'cf-connecting-ip': '203.0.113.10', 'x-api-key': `invented-${i}` });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    await worker.setState({});
  });

  it('gives a configured API key its own bucket and rate, whatever address it comes from', async () => {
    const apiKeys = [{ key: 'k-partner', name: 'partner', rate: 0.1, burst: 3 }];
    await worker.setState(limitEveryRequest({ rate: 0.1, burst: 1 }, { apiKeys }));
    const address = (n: number) => ({ 'cf-connecting-ip': `203.0.113.${20 + n}`, 'x-api-key': 'k-partner' });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await worker.get(PATH, address(i))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // The address itself, without the key, still has its own (smaller) bucket.
    expect((await worker.get(PATH, { 'cf-connecting-ip': '203.0.113.20' })).status).toBe(200);
    await worker.setState({});
  });

  it('serves cached answers to a client whose bucket is empty, and limits only what reaches the database', async () => {
    await worker.setState({ config: { edge: { rateLimit: { reads: { rate: 0.1, burst: 1 } } } } });
    const client = { 'cf-connecting-ip': '203.0.113.30' };
    expect((await worker.get(PATH, client)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (let i = 0; i < 5; i++) expect((await worker.get(PATH, client)).status).toBe(200);
    expect((await worker.get(`${PATH}?nonce=1`, client)).status).toBe(429);
    await worker.setState({});
  });
});

const origin = (res: { headers: Headers }) => res.headers.get('access-control-allow-origin');

describe('cross-origin reads', () => {
  it('allow any origin on answers, errors and cache hits alike', async () => {
    await worker.setState({});
    const answers = [
      await worker.get(PATH),
      await worker.get(PATH),
      await worker.get('/api/v1/transactions?limit=x'),
      await worker.get('/api/v1/transactions/0.0.1001-1700000000-000000009'),
      await worker.get('/api/v1/nothing-here'),
      await worker.get(PATH, { authorization: `Basic ${btoa('nobody:wrong')}` }),
    ];
    expect(answers.map((res) => [res.status, origin(res)])).toEqual([
      [200, '*'],
      [200, '*'],
      [400, '*'],
      [404, '*'],
      [404, '*'],
      [401, '*'],
    ]);
    // From the Cache API rather than this isolate's memory.
    await worker.setState({ config: { edge: { cache: { memoryBytes: 0 } } } });
    await worker.get(PATH);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const hit = await worker.get(PATH);
    expect(hit.headers.get('cf-cache-status')).toBe('HIT');
    expect(origin(hit)).toBe('*');
    await worker.setState({});
  });

  it('allow them on a client over its rate limit', async () => {
    await worker.setState(limitEveryRequest({ rate: 1, burst: 1 }));
    const client = { 'cf-connecting-ip': '203.0.113.9' };
    await worker.get(PATH, client);
    const limited = await worker.get(PATH, client);
    expect([limited.status, origin(limited)]).toEqual([429, '*']);
    await worker.setState({});
  });

  it('answer a preflight with 204, the methods and the requested headers', async () => {
    const res = await fetch(worker.baseUrl + PATH, {
      method: 'OPTIONS',
      headers: { origin: 'https://wallet.example', 'access-control-request-headers': 'x-api-key, content-type' },
    });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(origin(res)).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('GET');
    expect(res.headers.get('access-control-allow-headers')).toBe('x-api-key,content-type');
  });
});
