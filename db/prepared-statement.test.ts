import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { PreparedStatement } from './prepared-statement.ts';

const dialect = new PgDialect();
const COLUMNS = sql`index, hash`;

describe('a prepared statement', () => {
  it('binds to the text and parameters of the same statement built with its values', () => {
    const prepared = new PreparedStatement<{ low: bigint; high: string }>(
      sql`select ${COLUMNS} from record_file where index >= ${sql.placeholder('low')} and hash < ${sql.placeholder('high')}`,
    );
    const { sql: text, params } = dialect.sqlToQuery(
      sql`select ${COLUMNS} from record_file where index >= ${5n} and hash < ${'ab'}`,
    );
    expect(dialect.sqlToQuery(prepared.bind({ low: 5n, high: 'ab' }))).toEqual({ sql: text, params });
  });

  it('fills each parameter from its own placeholder whatever order the values come in', () => {
    const prepared = new PreparedStatement<{ a: number; b: number }>(
      sql`select ${sql.placeholder('b')} - ${sql.placeholder('a')}`,
    );
    expect(dialect.sqlToQuery(prepared.bind({ a: 1, b: 2 })).params).toEqual([2, 1]);
  });

  it('refuses a statement with a value in place of a placeholder', () => {
    expect(() => new PreparedStatement(sql`select ${1}`)).toThrow('a prepared statement takes placeholders only');
  });
});
