import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.ts';
import { parseQueryString, type RawParam, STRUCTURED } from './query-string.ts';

const S = STRUCTURED;
const parse = (search: string, limit = 8) => parseQueryString(search, limit);
const params = (entries: [string, RawParam['values']][]) => entries.map(([key, values]) => ({ key, values }));

const messageOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return `${error.status} ${error.messages.map((m) => m.message).join(' | ')}`;
    throw error;
  }
  return undefined;
};

describe('parseQueryString', () => {
  it.each<[string, string, [string, RawParam['values']][]]>([
    ['is empty for an empty query', '', []],
    ['is empty for a lone ?', '?', []],
    ['takes the query with or without its ?', '?limit=5', [['limit', ['5']]]],
    ['strips only one leading ?', '??limit=5', [['?limit', ['5']]]],
    ['keeps repeated values in order', 'a=1&a=2&a=3', [['a', ['1', '2', '3']]]],
    [
      'lowercases names and merges spellings by first appearance',
      'account.id=1&token.id=2&account.Id=lt:3&token.Id=gt:4&account.Id=lte:5&token.Id=gte:6&account.id=7&token.id=8&account.ID=9&token.ID=10',
      [
        ['account.id', ['1', '7', 'lt:3', 'lte:5', '9']],
        ['token.id', ['2', '8', 'gt:4', 'gte:6', '10']],
      ],
    ],
    [
      'lowercases the values of order and result only',
      'order=ASC&ORder=Desc&result=SUCCESS&type=CREDIT',
      [
        ['order', ['asc', 'desc']],
        ['result', ['success']],
        ['type', ['CREDIT']],
      ],
    ],
    [
      'decodes percent escapes and + in names and values',
      'account%2Eid=gte%3A0.0.1&memo=a+b%20c',
      [
        ['account.id', ['gte:0.0.1']],
        ['memo', ['a b c']],
      ],
    ],
    ['keeps a malformed escape as text', 'timestamp=%zz1', [['timestamp', ['%zz1']]]],
    [
      'reads a name without = as an empty value',
      'limit&order=',
      [
        ['limit', ['']],
        ['order', ['']],
      ],
    ],
    ['splits on the first = only', 'a=b=c', [['a', ['b=c']]]],
    ['skips empty parts and empty names', '&&=1&limit=2&', [['limit', ['2']]]],
    [
      'puts integer-like names first, ascending',
      'b=1&10=x&a=2&2=y',
      [
        ['2', ['y']],
        ['10', ['x']],
        ['b', ['1']],
        ['a', ['2']],
      ],
    ],
    ['drops names of Object.prototype members', 'constructor=1&__proto__=2&toString=3&limit=4', [['limit', ['4']]]],
    ['marks a differently cased prototype name as unreadable', 'CONSTRUCTOR=1', [['constructor', [S, '1']]]],
    ['appends a[] values to a', 'a=1&a[]=2&a%5B%5D=3', [['a', ['1', '2', '3']]]],
    ['places a[n] by index, then compacts', 'a[2]=x&a[]=y', [['a', ['y', 'x']]]],
    ['marks a[b] as a nested value', 'a[b]=1', [['a', [S]]]],
    ['keeps the strings next to a nested value', 'a=1&a[b]=2', [['a', [S]]]],
    ['reads [b]=1 as b=1', '[b]=1', [['b', ['1']]]],
    [
      'puts a top-level array under its indexes',
      '[]=a&[]=b',
      [
        ['0', ['a']],
        ['1', ['b']],
      ],
    ],
    ['drops an empty value merged into an existing bracketed one', 'a[2]=x&a', [['a', ['x']]]],
    ['allows a name the full limit of times', `${'a=1&'.repeat(7)}a=1`, [['a', Array(8).fill('1')]]],
    ['turns names without = repeated past the limit into one unreadable value', 'a&'.repeat(9), [['a', [S]]]],
  ])('%s', (_name, search, expected) => {
    expect(parse(search)).toEqual(params(expected));
  });

  it.each([
    [
      'refuses a name given more often than the limit',
      'topic2=0x00&topic2=0x00&topic2=0x00&topic2=0x00&topic2=0x00&topic2=0x00&topic2=0x00&topic2=0x00&topic2=0x00',
      8,
      '400 Array limit exceeded. Only 8 elements allowed in an array.',
    ],
    [
      'names the singular for a limit of 1',
      'a[1]=1',
      1,
      '400 Array limit exceeded. Only 1 element allowed in an array.',
    ],
    [
      'refuses an index at or past the limit',
      'a[8]=1',
      8,
      '400 Array limit exceeded. Only 8 elements allowed in an array.',
    ],
    [
      'refuses two levels of brackets',
      'a[b][c]=1',
      8,
      '400 Input depth exceeded depth option of 1 and strictDepth is true',
    ],
    [
      'refuses more than 1000 parameters',
      'a=1&'.repeat(1000),
      2000,
      '400 Parameter limit exceeded. Only 1000 parameters allowed.',
    ],
  ])('%s', (_name, search, limit, expected) => {
    expect(messageOf(() => parseQueryString(search, limit))).toBe(expected);
  });

  it('counts spellings separately against the limit (the cap applies after merging)', () => {
    const search = `${'limit=1&'.repeat(8)}${'LIMIT=2&'.repeat(8)}`;
    expect(parse(search)).toEqual(params([['limit', [...Array(8).fill('1'), ...Array(8).fill('2')]]]));
  });
});
