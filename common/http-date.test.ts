import { describe, expect, it } from 'vitest';
import { httpDate } from './http-date.ts';

describe('httpDate', () => {
  it('writes the IMF-fixdate of the second the time falls in', () => {
    expect(httpDate(Date.UTC(2026, 10, 23, 8, 5, 9, 999))).toBe('Mon, 23 Nov 2026 08:05:09 GMT');
    expect(httpDate(Date.UTC(2026, 10, 23, 8, 5, 9, 0))).toBe('Mon, 23 Nov 2026 08:05:09 GMT');
  });

  it('moves on with the next second, and back to an earlier one', () => {
    expect(httpDate(Date.UTC(2026, 10, 23, 8, 5, 10, 1))).toBe('Mon, 23 Nov 2026 08:05:10 GMT');
    expect(httpDate(Date.UTC(1999, 11, 31, 23, 59, 59, 500))).toBe('Fri, 31 Dec 1999 23:59:59 GMT');
  });
});
