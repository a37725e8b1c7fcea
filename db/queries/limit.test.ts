import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { limitOf } from './limit.ts';

const dialect = new PgDialect();

describe('limitOf', () => {
  it('writes the row limit into the statement text, not as a parameter', () => {
    const query = dialect.sqlToQuery(sql`select 1 from transaction where type = ${14} limit ${limitOf(25)}`);
    expect(query.sql).toBe('select 1 from transaction where type = $1 limit 25');
    expect(query.params).toEqual([14]);
  });

  it('refuses anything but a non-negative integer', () => {
    for (const rows of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(() => limitOf(rows)).toThrow(RangeError);
    }
    expect(() => limitOf(0)).not.toThrow();
  });
});
