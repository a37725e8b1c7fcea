import { expect, it } from 'vitest';
import { perUrlTable } from './bench-rest-table.ts';

const figures = (rps: number, p50: number, p99: number, non2xx = 0) => ({ rps, p50, p99, non2xx });

it('puts every URL on one line with its rate, p50 and p99 in each pass, and the cached rate against the uncached', () => {
  const table = perUrlTable(
    [
      {
        name: 'rest',
        rows: [
          { url: '/api/v1/blocks', base: figures(1523.4, 9, 31) },
          { url: '/api/v1/tokens', base: figures(2000, 7, 20, 3) },
        ],
      },
      {
        name: 'rest-cached',
        rows: [
          { url: '/api/v1/blocks', base: figures(30468, 0, 4) },
          { url: '/api/v1/tokens', base: figures(40000, 0, 3) },
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
    '| `/api/v1/blocks` | 1,523 | 9 | 31 | 30,468 | 0 | 4 | 20.0× |',
    '| `/api/v1/tokens` | 2,000 (3 non-2xx) | 7 | 20 | 40,000 | 0 | 3 | 20.0× |',
  ]);
});

it('leaves the ratio out when the cached pass was skipped', () => {
  const table = perUrlTable([{ name: 'rest', rows: [{ url: '/api/v1/blocks', base: figures(100, 1, 2) }] }], {
    date: 'd',
    commit: 'c',
    loadAverage: 'l',
  });
  expect(table.split('\n').slice(2)).toEqual([
    '| url | rest rps | p50 ms | p99 ms |',
    '|---|---:|---:|---:|',
    '| `/api/v1/blocks` | 100 | 1 | 2 |',
  ]);
});
