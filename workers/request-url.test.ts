import { describe, expect, it } from 'vitest';
import { pathAndQuery } from './request-url.ts';

describe('pathAndQuery', () => {
  it('splits an absolute URL as URL.pathname and URL.search do', () => {
    for (const url of [
      'http://127.0.0.1:8787/api/v1/transactions?account.id=0.0.98&limit=2',
      'https://mirror.example/api/v1/blocks/0xabc',
      'http://localhost/',
      'http://localhost/api/v1/accounts?',
      'http://localhost/api/v1/topics/0.0.5/messages?timestamp=gte:1.2&encoding=base64?x',
      'http://localhost',
    ]) {
      const parsed = new URL(url);
      expect(pathAndQuery(url), url).toEqual({ path: parsed.pathname, query: parsed.search });
    }
  });
});
