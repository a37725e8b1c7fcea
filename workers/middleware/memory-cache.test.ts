import { describe, expect, it } from 'vitest';
import { MemoryCache } from './memory-cache.ts';

const response = (bytes: number) => ({ body: new Uint8Array(bytes), headers: [['etag', '"x"']] as [string, string][] });

describe('MemoryCache', () => {
  it('answers until the expiry, then forgets the entry', () => {
    const cache = new MemoryCache(10_000);
    cache.put('a', response(10), 1_000);
    expect(cache.get('a', 999)?.body.byteLength).toBe(10);
    expect(cache.get('a', 1_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('drops the least recently used entries once over capacity', () => {
    const cache = new MemoryCache(3 * (1_000 + 256));
    cache.put('a', response(1_000), 10);
    cache.put('b', response(1_000), 10);
    cache.put('c', response(1_000), 10);
    expect(cache.get('a', 0)).toBeDefined();
    cache.put('d', response(1_000), 10);
    expect(cache.get('b', 0)).toBeUndefined();
    expect(['a', 'c', 'd'].map((key) => cache.get(key, 0) !== undefined)).toEqual([true, true, true]);
  });

  it('keeps nothing larger than its capacity and replaces an entry stored again', () => {
    const cache = new MemoryCache(2_000);
    cache.put('big', response(5_000), 10);
    expect(cache.get('big', 0)).toBeUndefined();
    cache.put('a', response(100), 10);
    cache.put('a', response(200), 20);
    expect(cache.get('a', 15)?.body.byteLength).toBe(200);
    expect(cache.size).toBe(1);
  });

  it('tells a stale entry from a fresh one until the entry expires', () => {
    const cache = new MemoryCache(10_000);
    cache.put('a', response(10), 3_000, 1_000);
    expect(cache.get('a', 999)?.freshUntil).toBe(1_000);
    expect(cache.get('a', 2_000)?.expiresAt).toBe(3_000);
    expect(cache.get('a', 3_000)).toBeUndefined();
  });
});
