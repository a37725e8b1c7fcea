import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { boundConditions, RangeBound, RangeBoundError, type RangeOperator } from './accounts-range-bounds.ts';

const dialect = new PgDialect();
const p = (operator: RangeOperator, value: number) => ({ operator, value: BigInt(value) });

/** The condition with its parameters written in, for reading. */
function text(bounds: RangeBound[]): string {
  const condition = boundConditions(bounds);
  if (!condition) return '';
  const { sql, params } = dialect.sqlToQuery(condition);
  return sql.replace(/\$(\d+)/g, (_, i) => String(params[Number(i) - 1]));
}

describe('Java paging bounds', () => {
  it('pages over two columns: at the lower edge, inside, at the upper edge', () => {
    const account = new RangeBound([p('gte', 20), p('lte', 30)], true, 'account.id', 'a');
    const token = new RangeBound([p('gte', 40), p('lte', 50)], false, 'token.id', 't');
    expect(text([account, token])).toBe('(((a = 20 and t >= 40) or (a > 20 and a < 30)) or (a = 30 and t <= 50))');
  });

  it('pages over three columns, recursing into the secondary ones', () => {
    const party = new RangeBound([p('gte', 1)], true, 'account.id', 'r');
    const token = new RangeBound([p('gte', 6)], false, 'token.id', 't');
    const serial = new RangeBound([p('gt', 1)], false, 'serialnumber', 's');
    expect(text([party, token, serial])).toBe('((r = 1 and ((t = 6 and s > 1) or t > 6)) or r > 1)');
  });

  it('turns a one-value range into eq, and an eq bound into both of its ends', () => {
    const account = new RangeBound([p('gte', 5), p('lt', 6)], true, 'account.id', 'a');
    const token = new RangeBound([p('gte', 7)], false, 'token.id', 't');
    expect(text([account, token])).toBe('(a = 5 and t >= 7)');
    const token2 = new RangeBound([p('eq', 6)], false, 'token.id', 't');
    // the same bound twice (as an airdrop request builds it): adjusting it changes both
    expect(text([token2, token2])).toBe('(t = 6 and t = 6)');
  });

  it('filters one column by its last lower and upper parameter, ignoring ne', () => {
    const bound = new RangeBound([p('gt', 1), p('gte', 3), p('ne', 4), p('lt', 9)], true, 'account.id', 'a');
    expect(text([bound])).toBe('(a >= 3 and a < 9)');
    expect(bound.count('ne')).toBe(1);
  });

  it('refuses an empty range on a primary sort field', () => {
    expect(() => new RangeBound([p('gt', 5), p('lt', 5)], true, 'account.id', 'a')).toThrow(RangeBoundError);
    expect(() => new RangeBound([p('gt', 5), p('lt', 5)], false, 'token.id', 't')).not.toThrow();
  });
});
