import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors.ts';
import type { Filter, Operator } from '../../params/filters.ts';
import { addToBound, type Bounds, boundParts, boundsCursor, newBound, validateBounds } from './bounds.ts';

const f = (key: string, operator: Operator, value: number): Filter<string, number> => ({ key, operator, value });

function bounds(filters: Filter<string, number>[]): Bounds<number, number> {
  const result: Bounds<number, number> = { primary: newBound('token.id'), secondary: newBound('serialnumber') };
  for (const filter of filters) addToBound(filter.key === 'token.id' ? result.primary : result.secondary, filter);
  validateBounds(result);
  return result;
}

const parts = (filters: Filter<string, number>[]) =>
  boundParts(bounds(filters)).map((part) => part.map((p) => `${p.key} ${p.operator} ${p.value}`));

const message = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error.messages[0]?.message;
  }
  return undefined;
};

describe('two-key paging bounds', () => {
  it('splits a range on both keys into lower, inner and upper parts', () => {
    expect(
      parts([f('token.id', 'gte', 1), f('token.id', 'lte', 5), f('serialnumber', 'gt', 3), f('serialnumber', 'lt', 9)]),
    ).toEqual([
      ['token.id eq 1', 'serialnumber gt 3'],
      ['token.id gt 1', 'token.id lt 5'],
      ['token.id eq 5', 'serialnumber lt 9'],
    ]);
  });

  it('keeps everything in one part when the secondary key has no range', () => {
    expect(parts([f('token.id', 'gt', 1), f('serialnumber', 'eq', 2)])).toEqual([
      ['token.id gt 1', 'serialnumber eq 2'],
    ]);
    expect(parts([])).toEqual([]);
  });

  it.each([
    [
      [f('serialnumber', 'eq', 2), f('serialnumber', 'eq', 3)],
      'Only one equal (eq) operator is allowed for serialnumber',
    ],
    [[f('token.id', 'gt', 2), f('token.id', 'gte', 3)], 'Only one gt/gte operator is allowed for token.id'],
    [[f('token.id', 'ne', 2)], 'Not equal (ne) operator is not supported for token.id'],
    [[f('token.id', 'eq', 2), f('token.id', 'lt', 3)], "Can't support both range and equal for token.id"],
    [[f('serialnumber', 'eq', 2)], 'serialnumber without a token.id parameter filter'],
    [[f('token.id', 'gt', 1), f('serialnumber', 'gt', 2)], 'token.id must have gte or eq operator'],
    [[f('token.id', 'lt', 1), f('serialnumber', 'lt', 2)], 'token.id must have lte or eq operator'],
  ])('refuses %j', (filters, expected) => {
    expect(message(() => bounds(filters))).toBe(expected);
  });

  it('continues from the last row, inclusive on the primary key unless the secondary one is fixed', () => {
    const ranged = bounds([f('token.id', 'gte', 1), f('serialnumber', 'gt', 3)]);
    expect(boundsCursor(ranged, { count: 2, limit: 2, last: { primary: '0.0.7', secondary: 4 } })).toEqual({
      'token.id': { value: '0.0.7', inclusive: true, primary: true },
      serialnumber: { value: 4 },
    });
    const fixed = bounds([f('token.id', 'eq', 1), f('serialnumber', 'eq', 3)]);
    expect(boundsCursor(fixed, { count: 2, limit: 2, last: { primary: '0.0.1', secondary: 3 } })).toBeNull();
    expect(boundsCursor(ranged, { count: 1, limit: 2, last: { primary: '0.0.7', secondary: 4 } })).toBeNull();
  });
});
