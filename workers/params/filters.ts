/** The comparison operators of the reference's `key=op:value` grammar. */
export type Operator = 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte';

export const OPERATORS: readonly Operator[] = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte'];

/** Operators are matched case-sensitively: `GT:5` is invalid. */
export const isOperator = (text: string): text is Operator => (OPERATORS as readonly string[]).includes(text);

export interface Filter<K extends string = string, V = unknown> {
  key: K;
  operator: Operator;
  value: V;
}

/**
 * Validates and converts one value of a query parameter, given its operator (already one of `OPERATORS`).
 * Returns `undefined` for an invalid value (reported as `Invalid parameter: <key>`). It may throw an `ApiError`
 * for a value that passes the reference's validation but fails its later conversion (an entity id out of range
 * gives `Invalid entity ID "0.0.274877906944"`); that error is raised only when no parameter is invalid.
 */
export type ParamParser<V> = (value: string, operator: Operator) => V | undefined;

export type Split = { operator: string; value: string };

/**
 * Splits `op:value` the way the reference builds filters: the value is the text after the last `:`, the
 * operator the part before it, anything earlier is ignored (`x:gt:5` is `gt:5`). No `:` means `eq`.
 */
export function splitFilterValue(text: string): Split {
  const parts = text.split(':');
  const value = parts.pop() ?? '';
  return { operator: parts.pop() ?? 'eq', value };
}

/** Splits `op:value` the way the reference's older request validation does: a second `:` makes it invalid. */
export function splitStrictValue(text: string): Split | undefined {
  const parts = text.split(':');
  if (parts.length === 1) return { operator: 'eq', value: parts[0] ?? '' };
  if (parts.length === 2) return { operator: parts[0] ?? '', value: parts[1] ?? '' };
  return undefined;
}

/** A parser that accepts only `eq` (explicit or implied) and otherwise defers to `parse`. */
export const eqOnly =
  <V>(parse: ParamParser<V>): ParamParser<V> =>
  (value, operator) =>
    operator === 'eq' ? parse(value, operator) : undefined;

/** A parser that refuses `ne` and otherwise defers to `parse`. */
export const noNe =
  <V>(parse: ParamParser<V>): ParamParser<V> =>
  (value, operator) =>
    operator === 'ne' ? undefined : parse(value, operator);
