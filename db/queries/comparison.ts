import { type SQL, sql } from 'drizzle-orm';

/** The operators of the API's `key=op:value` grammar. */
export type ComparisonOperator = 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte';

const SQL_OPERATORS: Readonly<Record<ComparisonOperator, string>> = {
  eq: '=',
  ne: '!=',
  lt: '<',
  lte: '<=',
  gt: '>',
  gte: '>=',
};

/** One filter on a column. A null value matches nothing (`x = null` is never true), as in the reference. */
export interface Comparison<V = unknown> {
  operator: ComparisonOperator;
  value: V;
}

/** `<column> <op> $n`. */
export const compare = (column: SQL, { operator, value }: Comparison): SQL =>
  sql`${column} ${sql.raw(SQL_OPERATORS[operator])} ${value}`;

/** `where a and b ...`, or nothing. */
export const whereAll = (conditions: readonly SQL[]): SQL =>
  conditions.length > 0 ? sql`where ${sql.join([...conditions], sql` and `)}` : sql``;
