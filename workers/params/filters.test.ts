import { describe, expect, it } from 'vitest';
import { eqOnly, isOperator, noNe, splitFilterValue, splitStrictValue } from './filters.ts';

describe('isOperator', () => {
  it.each([
    ['eq', true],
    ['ne', true],
    ['lt', true],
    ['lte', true],
    ['gt', true],
    ['gte', true],
    ['GT', false],
    ['gte ', false],
    ['', false],
    ['like', false],
  ])('%s -> %s', (text, expected) => {
    expect(isOperator(text)).toBe(expected);
  });
});

describe('splitFilterValue', () => {
  it.each([
    ['5', 'eq', '5'],
    ['gt:5', 'gt', '5'],
    ['gt:', 'gt', ''],
    [':5', '', '5'],
    ['', 'eq', ''],
    ['x:gte:5', 'gte', '5'],
    ['gt:lt:5', 'lt', '5'],
    ['18:34', '18', '34'],
  ])('%s -> %s %s', (text, operator, value) => {
    expect(splitFilterValue(text)).toEqual({ operator, value });
  });
});

describe('splitStrictValue', () => {
  it.each([
    ['5', { operator: 'eq', value: '5' }],
    ['lte:5', { operator: 'lte', value: '5' }],
    ['', { operator: 'eq', value: '' }],
    ['x:gte:5', undefined],
    ['::', undefined],
  ])('%s', (text, expected) => {
    expect(splitStrictValue(text)).toEqual(expected);
  });
});

describe('operator guards', () => {
  const echo = (value: string) => value;
  it('eqOnly passes eq and refuses the others', () => {
    expect(eqOnly(echo)('x', 'eq')).toBe('x');
    expect(eqOnly(echo)('x', 'gte')).toBeUndefined();
  });
  it('noNe refuses ne only', () => {
    expect(noNe(echo)('x', 'lt')).toBe('x');
    expect(noNe(echo)('x', 'ne')).toBeUndefined();
  });
});
