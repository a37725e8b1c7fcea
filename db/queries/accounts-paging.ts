import { type SQL, sql } from 'drizzle-orm';
import { type Comparison, compare } from './comparison.ts';
import { limitOf } from './limit.ts';

/** Filter building shared by the paged queries of accounts, their relations and transactions. */

/** A filter on one column of a paged query; a null value (an id that names no entity) matches nothing. */
export interface ColumnFilter<C extends string = string> extends Comparison<bigint | null> {
  column: C;
}

export const columnConditions = (filters: readonly ColumnFilter[]): SQL[] =>
  filters.map((filter) => compare(sql.raw(filter.column), filter));

/** `eq` values as one `in (...)` list, the other operators one condition each. */
export function idConditions(column: SQL, filters: readonly Comparison<bigint | null>[]): SQL[] {
  const conditions = filters.filter((f) => f.operator !== 'eq').map((f) => compare(column, f));
  const eq = [...new Set(filters.filter((f) => f.operator === 'eq').map((f) => f.value))];
  if (eq.length > 0)
    conditions.push(
      sql`${column} in (${sql.join(
        eq.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  return conditions;
}

/**
 * Runs `part` once per filter set and concatenates the results in key order: one part alone is the query itself;
 * several are a `union all` of parts that each walk the index in order and stop at `limit`, re-sorted and cut.
 */
export function unionOfParts(parts: readonly SQL[], orderBy: SQL, limit: number): SQL {
  if (parts.length === 1) return parts[0] as SQL;
  return sql`${sql.join(
    parts.map((part) => sql`(${part})`),
    sql` union all `,
  )} order by ${orderBy} limit ${limitOf(limit)}`;
}
