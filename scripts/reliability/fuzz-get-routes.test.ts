import { describe, expect, it } from 'vitest';
import { insertTransaction, ns } from '../../test/harness/factories.ts';
import { insertEntity, insertToken } from '../../test/harness/factories-tokens.ts';
import { seedTopicMessages } from '../../test/harness/factories-topics.ts';
import { registerWorkerSuite } from '../../test/harness/worker-suite.ts';
import { fuzzGetRoutes, malformedRequests } from './fuzz-get-routes.ts';
import { readGetRoutes } from './get-routes.ts';

const { worker } = registerWorkerSuite({
  // Rows behind the plausible ids, so that malformed parameters also reach the code that formats results.
  seed: async (db) => {
    await insertEntity(db.sql, 2, ns('1600000000.000000001'));
    await insertEntity(db.sql, 1001, ns('1600000000.000000001'));
    await insertToken(db.sql, 1002, ns('1600000000.000000002'));
    await insertEntity(db.sql, 7, ns('1600000000.000000003'), { type: 'TOPIC' });
    await seedTopicMessages(db.sql, 7n, 30, ns('1700000000.000000001'));
    await insertTransaction(db.sql, {
      consensus_timestamp: ns('1700000000.000000005'),
      payer_account_id: 1001n,
      valid_start_ns: ns('1700000000.000000001'),
    });
  },
});

describe('GET routes under malformed input', () => {
  it('reads every GET route of the reference document, with its parameters', () => {
    const routes = readGetRoutes();
    expect(routes.length).toBeGreaterThan(40);
    const messages = routes.find((r) => r.path === '/api/v1/topics/{topicId}/messages');
    expect(messages?.pathParams).toEqual(['topicId']);
    expect(messages?.queryParams).toEqual(expect.arrayContaining(['limit', 'order', 'timestamp']));
    expect(routes.some((r) => r.path === '/api/v1/contracts/call')).toBe(false);
  });

  it('makes the same requests from the same seed, bracketed and repeated names among them', () => {
    const routes = readGetRoutes();
    const requests = malformedRequests(routes, 500, 1);
    expect(malformedRequests(routes, 500, 1)).toEqual(requests);
    expect(malformedRequests(routes, 500, 2)).not.toEqual(requests);
    expect(requests.some((url) => /\?(.*&)?limit\[lt\]=/.test(url))).toBe(true);
    expect(requests.some((url) => /[?&]encoding=[^&]*&encoding=/.test(url))).toBe(true);
  });

  it('answers every malformed request with a status below 500', async () => {
    await worker.setState({ config: { edge: { rateLimit: { enabled: false } } } });
    const result = await fuzzGetRoutes({ baseUrl: worker.baseUrl, requests: 1500, concurrency: 4 });
    expect(result.failures).toEqual([]);
    // Most are refused: the fuzzer reaches validation, not only the 404 of a bad path.
    expect(result.byStatus.get(400) ?? 0).toBeGreaterThan(result.requests / 2);
    await worker.setState({});
  });
});
