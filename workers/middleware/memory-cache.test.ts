import { describe, expect, it } from 'vitest';
import { MemoryCache } from './memory-cache.ts';

const entry = (bytes: number, expiresMs: number) => ({ body: new ArrayBuffer(bytes), headers: [], expiresMs });

describe('MemoryCache', () => {
  it('serves an entry until it expires, then forgets it', () => {
    const cache = new MemoryCache(1600);
    cache.set('a', entry(10, 1000));
    expect(cache.get('a', 999)).toBeDefined();
    expect(cache.get('a', 1000)).toBeUndefined();
    expect(cache.get('a', 0)).toBeUndefined();
  });

  it('evicts the least recently used entries beyond its byte budget', () => {
    const cache = new MemoryCache(1600);
    for (const key of ['a', 'b', 'c']) cache.set(key, entry(100, 10_000));
    cache.get('a', 0);
    for (let i = 0; i < 14; i++) cache.set(`x${i}`, entry(100, 10_000));
    expect(cache.get('a', 0)).toBeDefined();
    expect(cache.get('b', 0)).toBeUndefined();
  });

  it('does not hold an entry larger than a sixteenth of its budget', () => {
    const cache = new MemoryCache(1600);
    cache.set('big', entry(101, 10_000));
    expect(cache.get('big', 0)).toBeUndefined();
  });
});
