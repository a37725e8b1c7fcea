import { afterEach, describe, expect, it, vi } from 'vitest';
import { logRequest } from './request-line.ts';

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
