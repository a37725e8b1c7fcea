import { describe, expect, it } from 'vitest';
import { nextLink } from './pagination.ts';

const base = 'http://127.0.0.1:8787';
const link = (path: string, order: 'asc' | 'desc', cursor: Record<string, string>) =>
  nextLink({
    url: base + path,
    order,
    cursor,
    maxRepeated: 100,
    boundValue: (_field, value) => (/^\d+$/.test(value) ? BigInt(value) : undefined),
  });

describe('nextLink', () => {
  it('adds the cursor bound to a query that has none', () => {
    expect(link('/api/v1/blocks?limit=2', 'desc', { 'block.number': '5' })).toBe(
      '/api/v1/blocks?limit=2&block.number=lt:5',
    );
  });

  it('replaces a single bound in the paging direction and moves it to the end', () => {
    expect(link('/api/v1/blocks?block.number=gt:1&limit=2', 'asc', { 'block.number': '3' })).toBe(
      '/api/v1/blocks?limit=2&block.number=gt:3',
    );
  });

  it('keeps the opposite bound of a range in place and appends the new one', () => {
    expect(link('/api/v1/blocks?block.number=gte:1&block.number=lte:9&limit=2', 'asc', { 'block.number': '3' })).toBe(
      '/api/v1/blocks?block.number=lte:9&block.number=gt:3&limit=2',
    );
  });

  it('is null when the next range is empty', () => {
    expect(link('/api/v1/blocks?block.number=gte:1&block.number=lte:3', 'asc', { 'block.number': '3' })).toBeNull();
  });

  it('writes inclusive bounds when asked', () => {
    const next = nextLink({
      url: `${base}/api/v1/x?order=asc`,
      order: 'asc',
      cursor: { 'account.id': '0.0.5', timestamp: { value: '1.000000002', inclusive: true } },
      maxRepeated: 100,
    });
    expect(next).toBe('/api/v1/x?order=asc&account.id=gt:0.0.5&timestamp=gte:1.000000002');
  });

  it('drops a trailing slash of the path and can include the host', () => {
    const next = nextLink({
      url: `${base}/api/v1/x/?limit=1`,
      order: 'desc',
      cursor: { id: '7' },
      maxRepeated: 100,
      includeHost: true,
    });
    expect(next).toBe(`${base}/api/v1/x?limit=1&id=lt:7`);
  });
});
