import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors.ts';
import { bindRequest, commaSeparated, type FieldSpec, requestParam } from './binding.ts';
import { bound, timestampBound } from './bound.ts';
import {
  isJavaBlank,
  javaSplit,
  javaTrim,
  lenientEnum,
  parseDirection,
  parseJavaLong,
  parseSpringInt,
} from './numbers.ts';
import { entityIdRangeParam, numberRangeParam, rangeOperator, timestampParam } from './range.ts';
import { servletParams } from './servlet-query.ts';

const NETWORK = { shard: 0, realm: 0 };
const messages = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error.messages;
    throw error;
  }
  throw new Error('no error');
};

describe('Java scalar conversions', () => {
  it.each([
    ['42', 42n],
    ['+42', 42n],
    ['-0', 0n],
    ['٤٢', 42n],
    ['9223372036854775807', 2n ** 63n - 1n],
    ['-9223372036854775808', -(2n ** 63n)],
    ['9223372036854775808', undefined],
    ['', undefined],
    ['+', undefined],
    [' 1', undefined],
    ['1e3', undefined],
  ])('Long.parseLong(%j) is %s', (text, value) => {
    expect(parseJavaLong(text)).toBe(value);
  });

  it.each([
    ['25', 25],
    [' 2 5 ', 25],
    ['0x1A', 26],
    ['#1a', 26],
    ['-0x10', -16],
    ['+5', 5],
    ['010', 10],
    ['2147483647', 2147483647],
    ['2147483648', undefined],
    ['0x', undefined],
    ['1.0', undefined],
  ])('Spring reads the int %j as %s', (text, value) => {
    expect(parseSpringInt(text)).toBe(value);
  });

  it('splits, trims and tests blanks as Java does', () => {
    expect(javaSplit('gt:5', ':')).toEqual(['gt', '5']);
    expect(javaSplit('5::', ':')).toEqual(['5']);
    expect(javaSplit(':5', ':')).toEqual(['', '5']);
    expect(javaSplit('::', ':')).toEqual([]);
    expect(javaTrim('\t a \u0001')).toBe('a');
    expect(isJavaBlank(' \t\u2003')).toBe(true);
    expect(isJavaBlank('\u00a0')).toBe(false);
  });

  it('converts enums leniently and directions strictly', () => {
    const types = ['BLOCK_NODE', 'MIRROR_NODE'] as const;
    expect(lenientEnum('BLOCK_NODE', types)).toBe('BLOCK_NODE');
    expect(lenientEnum(' Block-Node ', types)).toBe('BLOCK_NODE');
    expect(lenientEnum('mirrornode', types)).toBe('MIRROR_NODE');
    expect(lenientEnum('  ', types)).toBeNull();
    expect(lenientEnum('relay', types)).toBeUndefined();
    expect(parseDirection('DeSc')).toBe('desc');
    expect(parseDirection(' asc')).toBeUndefined();
  });
});

describe('Java range parameters', () => {
  it('reads operators in any case, not unknown ones', () => {
    expect(rangeOperator('GTE')).toBe('gte');
    expect(rangeOperator('Ne')).toBe('ne');
    expect(rangeOperator('unknown')).toBeUndefined();
    expect(rangeOperator(' ')).toBeUndefined();
  });

  it('reads number ranges', () => {
    expect(numberRangeParam('5')).toEqual({ operator: 'eq', value: 5n });
    expect(numberRangeParam('LT:5')).toEqual({ operator: 'lt', value: 5n });
    expect(numberRangeParam('5:')).toEqual({ operator: 'eq', value: 5n });
    expect(numberRangeParam(' ')).toEqual({ operator: 'unknown', value: -1n });
    for (const text of ['-1', 'gt:-1', 'a:1', 'eq:1:2', ':5', '::', '1.5'])
      expect(numberRangeParam(text)).toBeUndefined();
  });

  it('reads entity id ranges in the network shard and realm', () => {
    expect(entityIdRangeParam('102', { shard: 1, realm: 2 })).toEqual({
      operator: 'eq',
      value: (1n << 54n) | (2n << 38n) | 102n,
    });
    expect(entityIdRangeParam('gte:3.102', NETWORK)).toEqual({ operator: 'gte', value: (3n << 38n) | 102n });
    for (const text of ['0.0.-1', '1.2.3.4', '1024.0.1', '0.65536.1', `0.0.${2n ** 38n}`, '0..1', 'x']) {
      expect(entityIdRangeParam(text, NETWORK)).toBeUndefined();
    }
  });

  it('reads timestamps, the fraction as nanoseconds', () => {
    expect(timestampParam('1.5')).toEqual({ operator: 'eq', value: 1_000_000_005n });
    expect(timestampParam('Gt:1.000000001')).toEqual({ operator: 'gt', value: 1_000_000_001n });
    expect(timestampParam('9223372036.854775807')).toEqual({ operator: 'eq', value: 2n ** 63n - 1n });
    for (const text of ['ne:1', '9223372036.854775808', '1.', '.5', '1.0000000001', '123456789012345678', ' 1']) {
      expect(timestampParam(text)).toBeUndefined();
    }
  });

  it('bounds ranges, eq as an upper bound for timestamps', () => {
    const gt = { operator: 'gt' as const, value: 5n };
    const lt = { operator: 'lt' as const, value: 9n };
    expect(bound([gt, lt])).toEqual({ empty: false, lower: 6n, upper: 8n });
    expect(bound([])).toEqual({ empty: true, lower: 0n, upper: 2n ** 63n - 1n });
    expect(timestampBound([{ operator: 'eq', value: 7n }])).toEqual({ empty: false, lower: 0n, upper: 7n });
    expect(bound([{ operator: 'gt', value: 2n ** 63n - 1n }]).lower).toBe(-(2n ** 63n));
  });
});

describe('the servlet parameter map', () => {
  it('keeps name case and order, decodes values, skips what does not decode', () => {
    const params = servletParams('?b=1&A=x+y%21&b=2&flag&=v&bad=%G1&&u=%E2%9C%93');
    expect([...params]).toEqual([
      ['b', ['1', '2']],
      ['A', ['x y!']],
      ['flag', ['']],
      ['u', ['✓']],
    ]);
  });
});

describe('binding a request object', () => {
  const spec = {
    id: {
      name: 'id',
      multiple: true,
      initial: [],
      convert: (values: readonly string[]) => (values.every((v) => /^\d+$/.test(v)) ? [...values] : undefined),
      valid: (ids: string[]) => ids.length <= 2,
    } as FieldSpec<string[]>,
    limit: {
      name: 'limit',
      initial: 25,
      defaultValue: '25',
      convert: (values: readonly string[]) => parseSpringInt(values[0] as string),
      valid: (limit: number) => limit >= 1,
    } as FieldSpec<number>,
  };
  const bind = (query: string) => bindRequest(servletParams(query), spec);

  it('converts present values and keeps defaults', () => {
    expect(bind('id=1&id=2&limit=5')).toEqual({ id: ['1', '2'], limit: 5 });
    expect(bind('')).toEqual({ id: [], limit: 25 });
    expect(bind('limit=&limit=x')).toEqual({ id: [], limit: 25 });
  });

  it('reports conversion failures before constraint violations', () => {
    expect(messages(() => bind('limit=0&id=x'))).toEqual([
      { message: 'Invalid parameter: id' },
      { message: 'Invalid parameter: limit' },
    ]);
    expect(messages(() => bind('id=1&id=2&id=3&limit=x'))).toEqual([
      { message: 'Invalid parameter: limit' },
      { message: 'Invalid parameter: id' },
    ]);
  });

  it('fails at once on a second value of a single-valued field', () => {
    expect(messages(() => bind('id=x&limit=1&limit=2'))).toEqual([
      { message: 'Bad Request', detail: 'Only a single instance is supported for limit' },
    ]);
  });
});

describe('a controller parameter', () => {
  const convert = (arg: string | readonly string[]) => {
    const texts = typeof arg === 'string' ? commaSeparated(arg) : arg;
    return texts.every((t) => /^\d*$/.test(t)) ? texts : undefined;
  };

  it('splits one value at commas, takes several as they are, and uses its default for ""', () => {
    expect(requestParam(servletParams('t=1, 2,'), 't', { convert })).toEqual(['1', '2', '']);
    expect(requestParam(servletParams('t=1&t=2'), 't', { convert })).toEqual(['1', '2']);
    expect(requestParam(servletParams('t='), 't', { convert, defaultValue: '7' })).toEqual(['7']);
    expect(requestParam(servletParams(''), 't', { convert })).toBeUndefined();
  });

  it("fails with Failed to convert '<name>'", () => {
    expect(messages(() => requestParam(servletParams('t=1,x'), 't', { convert }))).toEqual([
      { message: 'Bad Request', detail: "Failed to convert 't'" },
    ]);
  });
});
