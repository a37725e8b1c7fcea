import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOGGED_URL_PART_CHARS, logRequest } from './request-line.ts';

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

  it('cuts a long path and a long query to their first characters and their length', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const query = `?${'account.id=0.0.1&'.repeat(6000)}`;
    const path = `/api/v1/accounts/${'9'.repeat(3000)}`;
    logRequest({ method: 'GET', url: `http://localhost:8787${path}${query}`, status: 400, ms: 1, cache: 'miss' });
    const line = String(log.mock.calls[0]?.[0]);
    const fields = JSON.parse(line);
    expect(fields.query).toBe(`${query.slice(0, LOGGED_URL_PART_CHARS)}…(${query.length} chars)`);
    expect(fields.path).toBe(`${path.slice(0, LOGGED_URL_PART_CHARS)}…(${path.length} chars)`);
    expect(line.length).toBeLessThan(3 * LOGGED_URL_PART_CHARS);
  });
});
