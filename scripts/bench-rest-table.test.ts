import { expect, it } from 'vitest';
import { compare, perUrlTable } from './bench-rest-table.ts';

const figures = (rps: number, p50: number, p99: number, non2xx = 0) => ({ rps, p50, p99, non2xx });

it('puts every URL on one line with its rate, p50 and p99 in each pass, and the cached rate against the uncached', () => {
  const table = perUrlTable(
    [
      {
        name: 'rest',
        rows: [
          { url: '/api/v1/blocks', base: figures(1500, 9, 30) },
          { url: '/api/v1/tokens', base: figures(2000, 7, 20, 3) },
        ],
      },
      {
        name: 'rest-cached',
        rows: [
          { url: '/api/v1/blocks', base: figures(30000, 1, 4) },
          { url: '/api/v1/tokens', base: figures(40000, 1, 3) },
        ],
      },
    ],
    { date: '2026-11-27', commit: 'abc1234', loadAverage: '9.1 8.0 7.2' },
  );
  expect(table.split('\n')).toEqual([
    '2026-11-27, commit abc1234, load average 9.1 8.0 7.2',
    '',
    '| url | rest rps | p50 ms | p99 ms | rest-cached rps | p50 ms | p99 ms | cached / uncached |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    '| `/api/v1/blocks` | 1,500 | 9 | 30 | 30,000 | 1 | 4 | 20.0× |',
    '| `/api/v1/tokens` | 2,000 (3 non-2xx) | 7 | 20 | 40,000 | 1 | 3 | 20.0× |',
    '| **geometric mean** | **1,732** | 7.9 | 24 | **34,641** | 1.0 | 3 | 20.0× |',
  ]);
});

it('adds the other server of a side-by-side uncached pass, with the ratios', () => {
  const table = perUrlTable(
    [
      {
        name: 'rest',
        rows: [
          { url: '/api/v1/blocks', base: figures(2000, 4, 10), vs: figures(1000, 8, 5) },
          { url: '/api/v1/tokens', base: figures(900, 10, 20), vs: figures(1000, 10, 40) },
        ],
      },
    ],
    { date: 'd', commit: 'c', loadAverage: 'l' },
  );
  expect(table.split('\n').slice(2)).toEqual([
    '| url | rest rps | p50 ms | p99 ms | reference rps | p50 ms | p99 ms | rps × reference | p50 × reference | p99 × reference |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    '| `/api/v1/blocks` | 2,000 | 4 | 10 | 1,000 | 8 | 5 | 2.00× | 0.50 | 2.00 |',
    '| `/api/v1/tokens` | 900 | 10 | 20 | 1,000 | 10 | 40 | 0.90× | 1.00 | 0.50 |',
    '| **geometric mean** | **1,342** | 6.3 | 14 | **1,000** | 8.9 | 14 | **1.34×** | 0.71 | 1.00 |',
  ]);
});

it('says how a side-by-side pass compares: the mean rate ratio, the URLs below 1x, where its p99 is no higher', () => {
  const comparison = compare({
    name: 'rest',
    rows: [
      { url: '/a', base: figures(4000, 2, 5), vs: figures(1000, 4, 5) },
      { url: '/b', base: figures(900, 2, 9), vs: figures(1000, 2, 4) },
    ],
  });
  expect(comparison?.rpsRatio).toBeCloseTo(Math.sqrt(4 * 0.9), 10);
  expect(comparison?.below).toEqual([{ url: '/b', ratio: 0.9 }]);
  expect(comparison?.p99AtMost).toBe(1);
  expect(comparison?.urls).toBe(2);
  expect(compare({ name: 'rest', rows: [{ url: '/a', base: figures(1, 1, 1) }] })).toBeUndefined();
});
