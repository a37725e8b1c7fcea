import { afterEach, describe, expect, it, vi } from 'vitest';
import { TtlCache } from './latest-cache.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('TtlCache', () => {
  it('answers a key from one read until its time is up, then reads again', async () => {
    vi.useFakeTimers();
    const cache = new TtlCache<number>(1_000);
    let reads = 0;
    const load = async () => ++reads;
    expect(await cache.get('k', load)).toBe(1);
    vi.advanceTimersByTime(999);
    expect(await cache.get('k', load)).toBe(1);
    vi.advanceTimersByTime(1);
    expect(await cache.get('k', load)).toBe(2);
  });

  it('does not keep a failed read', async () => {
    const cache = new TtlCache<number>(1_000);
    await expect(cache.get('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('k', async () => 7)).toBe(7);
  });
});
