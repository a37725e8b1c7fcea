import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOGGED_URL_PART_CHARS, logRequest, MAX_BATCHED_LINES } from './request-line.ts';

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

describe('logRequest in batches', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  const line = (n: number) => ({
    method: 'GET',
    url: `http://localhost/api/v1/blocks/${n}`,
    status: 200,
    ms: 1,
    cache: 'off' as const,
  });
  const pathsOf = (text: unknown) =>
    String(text)
      .split('\n')
      .map((l) => JSON.parse(l).path);

  it('writes the lines of the batch delay in one console call, in their order, and keeps the first request alive until then', async () => {
    vi.useFakeTimers();
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const kept: Promise<unknown>[] = [];
    const writing = { batchMs: 50, waitUntil: (promise: Promise<unknown>) => kept.push(promise) };
    for (const n of [1, 2, 3]) logRequest(line(n), writing);
    expect(log).not.toHaveBeenCalled();
    expect(kept).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(50);
    await Promise.all(kept);
    expect(log).toHaveBeenCalledTimes(1);
    expect(pathsOf(log.mock.calls[0]?.[0])).toEqual(['/api/v1/blocks/1', '/api/v1/blocks/2', '/api/v1/blocks/3']);
    logRequest(line(4), writing);
    expect(kept).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(50);
    expect(pathsOf(log.mock.calls[1]?.[0])).toEqual(['/api/v1/blocks/4']);
  });

  it('writes a full batch at once, and the timer of a batch already written writes nothing', async () => {
    vi.useFakeTimers();
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const writing = { batchMs: 50, waitUntil: () => {} };
    for (let n = 0; n < MAX_BATCHED_LINES; n++) logRequest(line(n), writing);
    expect(log).toHaveBeenCalledTimes(1);
    expect(pathsOf(log.mock.calls[0]?.[0])).toHaveLength(MAX_BATCHED_LINES);
    await vi.advanceTimersByTimeAsync(50);
    expect(log).toHaveBeenCalledTimes(1);
  });

  it('writes the waiting lines before a line that is not batched', async () => {
    vi.useFakeTimers();
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    logRequest(line(1), { batchMs: 50, waitUntil: () => {} });
    logRequest(line(2));
    expect(log.mock.calls.map((call) => pathsOf(call[0]))).toEqual([['/api/v1/blocks/1'], ['/api/v1/blocks/2']]);
    await vi.advanceTimersByTimeAsync(50);
    expect(log).toHaveBeenCalledTimes(2);
  });
});
