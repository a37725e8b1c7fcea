import { describe, expect, it } from 'vitest';
import type { Filter } from './filters.ts';
import { limitParam, orderParam, resolveLimit, resolveOrder } from './limit-order.ts';

describe('limitParam', () => {
  const limit = limitParam(100);
  it.each<[string, number | undefined]>([
    ['1', 1],
    ['25', 25],
    ['100', 100],
    ['101', 100],
    ['9223372036854775807', 100],
    ['007', 7],
    ['0', undefined],
    ['-5', undefined],
    ['9223372036854775808', undefined],
    ['1.5', undefined],
    [' 1', undefined],
    ['a', undefined],
    ['', undefined],
  ])('%j -> %s', (text, expected) => {
    expect(limit(text, 'eq')).toBe(expected);
  });

  it('ignores the operator, as the reference does', () => {
    expect(limit('5', 'gt')).toBe(5);
  });

  it('caps to a per-user maximum', () => {
    expect(limitParam(1000)('500', 'eq')).toBe(500);
  });
});

describe('orderParam', () => {
  it.each<[string, string | undefined]>([
    ['asc', 'asc'],
    ['DESC', 'desc'],
    ['Asc', 'asc'],
    ['ascending', undefined],
    ['', undefined],
    ['12', undefined],
  ])('%j -> %s', (text, expected) => {
    expect(orderParam(text, 'eq')).toBe(expected);
  });
});

describe('resolveLimit / resolveOrder', () => {
  const filters: Filter[] = [
    { key: 'limit', operator: 'eq', value: 5 },
    { key: 'order', operator: 'eq', value: 'asc' },
    { key: 'limit', operator: 'eq', value: 7 },
    { key: 'order', operator: 'eq', value: 'desc' },
  ];
  it('takes the last value given', () => {
    expect(resolveLimit(filters, 25)).toBe(7);
    expect(resolveOrder(filters, 'asc')).toBe('desc');
  });
  it('falls back to the defaults', () => {
    expect(resolveLimit([], 25)).toBe(25);
    expect(resolveOrder([], 'desc')).toBe('desc');
  });
});
