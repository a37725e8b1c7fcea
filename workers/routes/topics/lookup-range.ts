import type { Comparison } from '../../../db/queries/comparison.ts';
import type { InclusiveRange } from '../../../db/queries/topics-messages.ts';
import { ApiError } from '../../errors.ts';
import { MAX_LONG } from '../../params/scalars.ts';

/**
 * Folds one parameter's filters into an inclusive range starting at `floor`, or null when they exclude each other.
 * The upper end stays below 2^63-1 so Postgres can build the closed `int8range`. `ne` has no range form.
 */
export function rangeOfFilters(
  key: string,
  filters: readonly Comparison<bigint>[],
  floor: bigint,
): InclusiveRange | null {
  const range = { lower: floor, upper: MAX_LONG - 1n };
  for (const { operator, value } of filters) {
    switch (operator) {
      case 'eq':
        if (value < range.lower || value > range.upper) return null;
        range.lower = value;
        range.upper = value;
        break;
      case 'gt':
      case 'gte': {
        const bound = operator === 'gt' ? value + 1n : value;
        if (bound > range.lower) range.lower = bound;
        break;
      }
      case 'lt':
      case 'lte': {
        const bound = operator === 'lt' ? value - 1n : value;
        if (bound < range.upper) range.upper = bound;
        break;
      }
      case 'ne':
        throw ApiError.badRequest(`Not equal (ne) operator is not supported for ${key}`);
    }
  }
  return range.lower <= range.upper ? range : null;
}
