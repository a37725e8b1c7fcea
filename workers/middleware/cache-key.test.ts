import { describe, expect, it } from 'vitest';
import { cacheKeyPrefix, canonicalQuery } from './cache-key.ts';

describe('canonicalQuery', () => {
  it('spells every encoding of one query the same way', () => {
    const spellings = ['?timestamp=lt%3A1.5&limit=2', '?timestamp=lt:1.5&limit=2', '?timestamp=lt%3a1.5&limit=2'];
    expect(new Set(spellings.map(canonicalQuery)).size).toBe(1);
  });

  it('keeps the order of parameters and of repeated values, which the answer depends on', () => {
    expect(canonicalQuery('?b=1&a=2')).not.toBe(canonicalQuery('?a=2&b=1'));
    expect(canonicalQuery('?t=gt:1&t=lt:5')).not.toBe(canonicalQuery('?t=lt:5&t=gt:1'));
  });

  it('treats + as a space, as query parsing does, and survives malformed escapes', () => {
    expect(canonicalQuery('?name=a+b')).toBe(canonicalQuery('?name=a%20b'));
    expect(canonicalQuery('?name=%E0%A4%A')).toBe('?name=%25E0%25A4%25A');
    expect(canonicalQuery('')).toBe('');
  });

  it('gives a query spelled canonically its own spelling, as decoding and re-encoding it pair by pair would', () => {
    const plain = ['?limit=2', '?account.id=0.0.1001&timestamp=lt:1.5&order=desc', "?a=b,c&x=(!~*')&flag", '?n='];
    for (const query of plain) {
      expect(canonicalQuery(query)).toBe(query);
      // A letter percent-encoded takes the pair-by-pair way to the same key.
      expect(canonicalQuery(query.replace(/[a-z]/, (letter) => `%${letter.charCodeAt(0).toString(16)}`))).toBe(query);
    }
    expect(canonicalQuery('?a=b=c')).toBe('?a=b%3Dc');
    expect(canonicalQuery('?a=1&&b=2')).toBe('?a=1&b=2');
    expect(canonicalQuery('?=1')).toBe('?=1');
    expect(canonicalQuery('?a=x y')).toBe('?a=x%20y');
  });
});

describe('cacheKeyPrefix', () => {
  it('names the database, so answers cached from one are never keys of another', () => {
    const first = cacheKeyPrefix({ DATABASE_ID: '1f2e3d4c5b6a7980' });
    expect(first).not.toBe(cacheKeyPrefix({ DATABASE_ID: '0a1b2c3d4e5f6071' }));
    expect(first).toBe(cacheKeyPrefix({ DATABASE_ID: '1f2e3d4c5b6a7980' }));
    expect(cacheKeyPrefix({})).toBe('v1');
  });
});
