import { describe, expect, it } from 'vitest';
import { insertTransaction, ns } from '../../test/harness/factories.ts';
import { registerWorkerSuite } from '../../test/harness/worker-suite.ts';

const PATH = '/api/v1/transactions/0.0.1001-1700000000-000000001';

const { worker } = registerWorkerSuite({
  seed: async (db) => {
    await insertTransaction(db.sql, {
      consensus_timestamp: ns('1700000000.000000005'),
      payer_account_id: 1001n,
      valid_start_ns: ns('1700000000.000000001'),
    });
  },
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
    await worker.setState({ config: { edge: { rateLimit: { reads: { rate: 1, burst: 1 } } } } });
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
