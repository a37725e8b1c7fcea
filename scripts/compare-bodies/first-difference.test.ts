import { describe, expect, it } from 'vitest';
import { firstDifference } from './first-difference.ts';

describe('firstDifference', () => {
  it('finds nothing in identical texts', () => {
    expect(firstDifference('{"a":1}', '{"a":1}')).toBeUndefined();
  });

  it('points at the first differing character, with both texts around it', () => {
    expect(firstDifference('{"a":1,"b":2}', '{"b":2,"a":1}')).toEqual({
      at: 2,
      context: 'reference «{"a":1,"b":2}» vs edge-mirror «{"b":2,"a":1}»',
    });
  });

  it('treats a text that ends early as differing where it ends', () => {
    expect(firstDifference('[1,2]', '[1,2]\n')?.at).toBe(5);
  });
});
