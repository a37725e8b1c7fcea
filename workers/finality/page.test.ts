import { describe, expect, it } from 'vitest';
import { inclusiveUpper, isFinalPage } from './page.ts';

const page = { order: 'desc' as const, limit: 25, rows: 25, upper: undefined, committed: 100n };

describe('isFinalPage', () => {
  it('is final when the range ends at or below the newest committed key', () => {
    expect(isFinalPage({ ...page, upper: 100n })).toBe(true);
    expect(isFinalPage({ ...page, upper: 100n, rows: 0 })).toBe(true);
    expect(isFinalPage({ ...page, upper: 101n })).toBe(false);
  });

  it('is final for a full page walking up, whatever its range', () => {
    expect(isFinalPage({ ...page, order: 'asc' })).toBe(true);
    expect(isFinalPage({ ...page, order: 'asc', rows: 24 })).toBe(false);
  });

  it('is never final for the head of a list walking down, nor without a committed key', () => {
    expect(isFinalPage(page)).toBe(false);
    expect(isFinalPage({ ...page, order: 'asc', upper: 5n, committed: null })).toBe(false);
  });
});

describe('inclusiveUpper', () => {
  const c = (operator: string, value: bigint) => ({ operator, value });

  it('takes the tightest of lt and lte, and the greatest of the eq values', () => {
    expect(inclusiveUpper([c('lt', 10n), c('lte', 12n)])).toBe(9n);
    expect(inclusiveUpper([c('eq', 5n), c('eq', 10n)])).toBe(10n);
    expect(inclusiveUpper([c('eq', 5n), c('eq', 10n), c('lt', 8n)])).toBe(7n);
    expect(inclusiveUpper([c('gt', 5n), c('ne', 9n)])).toBeUndefined();
  });
});
