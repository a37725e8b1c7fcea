import { afterEach, describe, expect, it, vi } from 'vitest';
import { logRequest, pathAndQuery } from './request-line.ts';

describe('pathAndQuery', () => {
  it('splits an absolute URL as URL.pathname and URL.search do', () => {
    for (const url of [
      'http://127.0.0.1:8787/api/v1/transactions?account.id=0.0.98&limit=2',
      'https://mirror.example/api/v1/blocks/0xabc',
      'http://localhost/',
      'http://localhost/api/v1/accounts?',
      'http://localhost/api/v1/topics/0.0.5/messages?timestamp=gte:1.2&encoding=base64?x',
      'http://localhost',
    ]) {
      const parsed = new URL(url);
      expect(pathAndQuery(url), url).toEqual({ path: parsed.pathname, query: parsed.search });
    }
  });
});

describe('logRequest', () => {
  afterEach(() => vi.restoreAllMocks());

  it('writes one JSON line with the path, the query, the status and the timing', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    logRequest({
      method: 'GET',
      url: 'http://localhost:8787/api/v1/blocks?limit=1',
      status: 200,
      ms: 1.26,
      cache: 'miss',
      rateLimit: 'off',
    });
    expect(log).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(log.mock.calls[0]?.[0]))).toEqual({
      msg: 'request',
      method: 'GET',
      path: '/api/v1/blocks',
      query: '?limit=1',
      status: 200,
      ms: 1.3,
      cache: 'miss',
      rateLimit: 'off',
    });
  });
});
