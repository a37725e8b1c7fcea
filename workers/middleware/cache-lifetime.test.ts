import { describe, expect, it } from 'vitest';
import { lifetimeOf, servedCacheControl, storedCacheControl } from './cache-lifetime.ts';

const FINAL = 'public, max-age=31536000, immutable';

describe('lifetimeOf', () => {
  it('keeps a final answer, a 404 included, for its max-age and never stale', () => {
    expect(lifetimeOf(200, FINAL, 120)).toEqual({ maxAge: 31_536_000, staleSeconds: 0 });
    expect(lifetimeOf(404, FINAL, 120)).toEqual({ maxAge: 31_536_000, staleSeconds: 0 });
  });

  it('keeps an answer that can still change for its max-age, then within the stale bound', () => {
    expect(lifetimeOf(200, 'public, max-age=2', 120)).toEqual({ maxAge: 2, staleSeconds: 120 });
    expect(lifetimeOf(200, 'public, max-age=2', 0)).toEqual({ maxAge: 2, staleSeconds: 0 });
  });

  it('keeps no error, no 404 that is not final and no answer without a max-age', () => {
    expect(lifetimeOf(404, 'public, max-age=60', 120)).toBeUndefined();
    expect(lifetimeOf(400, FINAL, 120)).toBeUndefined();
    expect(lifetimeOf(206, 'public, max-age=600', 120)).toBeUndefined();
    expect(lifetimeOf(200, null, 120)).toBeUndefined();
    expect(lifetimeOf(200, 'public, max-age=0', 120)).toBeUndefined();
  });
});

describe("the Cache API copy's Cache-Control", () => {
  it('covers the stale bound for the shared cache, and is the route own again on the way out', () => {
    const stored = storedCacheControl('public, max-age=2', { maxAge: 2, staleSeconds: 120 });
    expect(stored).toBe('public, max-age=2, s-maxage=122');
    expect(servedCacheControl(stored)).toBe('public, max-age=2');
    expect(storedCacheControl(FINAL, { maxAge: 31_536_000, staleSeconds: 0 })).toBe(FINAL);
  });
});
