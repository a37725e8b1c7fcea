import { describe, expect, it } from 'vitest';
import { servletParams } from '../params/java/servlet-query.ts';
import { javaFloatString } from './java-float.ts';
import { javaNextLink } from './java-next-link.ts';

describe('javaFloatString', () => {
  it.each([
    [0, '0.0'],
    [1, '1.0'],
    [0.1, '0.1'],
    [1 / 3, '0.33333334'],
    [2 / 3, '0.6666667'],
    [0.001, '0.001'],
    [0.0001, '1.0E-4'],
    [123.456, '123.456'],
    [1e7, '1.0E7'],
    [12345678, '1.2345678E7'],
    [-0.5, '-0.5'],
  ])('writes %s as %s', (value, text) => {
    expect(javaFloatString(value)).toBe(text);
  });
});

describe('javaNextLink', () => {
  const link = (query: string, order: 'asc' | 'desc' = 'asc', last = '5') =>
    javaNextLink({ path: '/api/v1/x', params: servletParams(query), sort: ['id'], order, last: { id: last } });

  it('appends the bound after the other parameters', () => {
    expect(link('limit=2')).toBe('/api/v1/x?limit=2&id=gt:5');
    expect(link('limit=2', 'desc')).toBe('/api/v1/x?limit=2&id=lt:5');
  });

  it('replaces bounds in the paging direction and keeps the others in place', () => {
    expect(link('id=GTE:1&limit=2')).toBe('/api/v1/x?limit=2&id=gt:5');
    expect(link('id=GTE:1&limit=2&id=lt:9')).toBe('/api/v1/x?id=lt:9&id=gt:5&limit=2');
    expect(link('id=lt:9&limit=2')).toBe('/api/v1/x?id=lt:9&id=gt:5&limit=2');
    expect(link('id=gt:1&limit=2', 'desc', '7')).toBe('/api/v1/x?id=gt:1&id=lt:7&limit=2');
  });

  it('leaves a field given with eq, no operator or ne alone', () => {
    expect(link('id=3&limit=1')).toBe('/api/v1/x?id=3&limit=1');
    expect(link('id=ne:3&limit=1')).toBe('/api/v1/x?id=ne:3&limit=1');
  });

  it('is null when the new bound leaves an empty range', () => {
    expect(link('id=lt:6')).toBeNull();
    expect(link('id=lte:5')).toBeNull();
    expect(link('id=lt:7')).toBe('/api/v1/x?id=lt:7&id=gt:5');
  });

  it('re-encodes names and values as Spring does', () => {
    expect(link('q=a+b%2Fc%3D%26%25%E2%9C%93&Q=x')).toBe('/api/v1/x?q=a%20b/c%3D%26%25%E2%9C%93&Q=x&id=gt:5');
  });

  it('bounds a secondary sort field inclusively unless the next field is fixed by eq', () => {
    const params = servletParams('limit=1');
    const options = { path: '/p', params, sort: ['a', 'b'], order: 'asc' as const, last: { a: '1', b: '2' } };
    expect(javaNextLink(options)).toBe('/p?limit=1&a=gte:1&b=gt:2');
    expect(javaNextLink({ ...options, params: servletParams('b=2') })).toBe('/p?b=2&a=gt:1');
  });
});
