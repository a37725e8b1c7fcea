import { describe, expect, it } from 'vitest';
import { CommitTimes, percentile } from './latency.ts';

describe('CommitTimes', () => {
  it('finds the commit of the file whose range holds a timestamp', () => {
    const times = new CommitTimes();
    times.add(100n, 1_000);
    times.add(200n, 2_000);
    expect(times.commitOf(50n)).toBe(1_000);
    expect(times.commitOf(100n)).toBe(1_000);
    expect(times.commitOf(101n)).toBe(2_000);
    expect(times.commitOf(201n)).toBeUndefined();
  });
});

describe('percentile', () => {
  it('takes the nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile([], 50)).toBeNaN();
  });
});
