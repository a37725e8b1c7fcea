import { ApiError } from '../errors.ts';
import type { Filter, ParamParser } from './filters.ts';
import { MAX_LONG } from './scalars.ts';

const NANOS_PER_SECOND = 1_000_000_000n;

/**
 * `seconds` or `seconds.nanos`: 1 to 10 digits of seconds, 1 to 9 digits of fraction (right-padded, so `.5` is
 * half a second). No sign, no exponent, no spaces. Returns nanoseconds since the epoch.
 */
export function parseTimestamp(text: string): bigint | undefined {
  const match = /^(\d{1,10})(?:\.(\d{1,9}))?$/.exec(text);
  if (!match?.[1]) return undefined;
  return BigInt(match[1]) * NANOS_PER_SECOND + BigInt((match[2] ?? '').padEnd(9, '0'));
}

/** Nanoseconds since the epoch as `seconds.nnnnnnnnn` (always nine fraction digits). */
export function formatTimestamp(ns: bigint, separator = '.'): string {
  const sign = ns < 0n ? '-' : '';
  const abs = ns < 0n ? -ns : ns;
  return `${sign}${abs / NANOS_PER_SECOND}${separator}${(abs % NANOS_PER_SECOND).toString().padStart(9, '0')}`;
}

/** The `timestamp` query parameter: any operator, `ne` included (routes that refuse it say so themselves). */
export const timestampParam: ParamParser<bigint> = (value) => parseTimestamp(value);

export interface TimestampRange {
  /** Inclusive bounds; `null` when open on that side. */
  lower: bigint | null;
  upper: bigint | null;
  /** Bounds were given and exclude each other. */
  empty: boolean;
  eq: bigint[];
  ne: bigint[];
}

export interface TimestampRangeOptions {
  /** The text the error names (`query.maxTimestampRange`, e.g. `7d`) and its value in nanoseconds. */
  maxRange: string;
  maxRangeNs: bigint;
  /** At least one filter must be given (default true). */
  required?: boolean;
  allowNe?: boolean;
  /** A lone lower or upper bound is enough (default false). */
  allowOpenRange?: boolean;
  /** Refuse ne, repeated bounds and eq mixed with others (default true; `query.strictTimestampParam`). */
  strict?: boolean;
  /** Refuse a range that is empty or wider than `maxRangeNs` (default true). */
  validateRange?: boolean;
}

/**
 * `timestampRange` as the reference reads the timestamps of its transaction lists and of an account's page
 * (`strictTimestampParam` is not consulted there): optional, any mix of operators, ne allowed, a lone bound enough,
 * no range cap; an empty range finds nothing.
 */
export function looseTimestampRange(
  filters: readonly Filter<string, bigint>[],
  query: { maxTimestampRange: string; maxTimestampRangeNs: number },
): TimestampRange {
  return timestampRange(filters, {
    maxRange: query.maxTimestampRange,
    maxRangeNs: BigInt(query.maxTimestampRangeNs),
    required: false,
    allowNe: true,
    allowOpenRange: true,
    strict: false,
    validateRange: false,
  });
}

/**
 * Folds `timestamp` filters into one range plus eq / ne values, with the reference's checks and messages.
 * Repeated lower bounds keep the largest, repeated upper bounds the smallest.
 */
export function timestampRange(
  filters: readonly Filter<string, bigint>[],
  options: TimestampRangeOptions,
): TimestampRange {
  const { required = true, allowNe = false, allowOpenRange = false, strict = true, validateRange = true } = options;
  if (filters.length === 0) {
    if (required) throw ApiError.badRequest('No timestamp range or eq operator provided');
    return { lower: null, upper: null, empty: false, eq: [], ne: [] };
  }

  let lower: bigint | null = null;
  let upper: bigint | null = null;
  let lowerCount = 0;
  let upperCount = 0;
  const eq = new Set<bigint>();
  const ne = new Set<bigint>();
  for (const { operator, value } of filters) {
    if (operator === 'eq') eq.add(value);
    else if (operator === 'ne') ne.add(value);
    else if (operator === 'gt' || operator === 'gte') {
      const bound = operator === 'gt' ? value + 1n : value;
      lower = bound > (lower ?? 0n) ? bound : (lower ?? 0n);
      lowerCount += 1;
    } else {
      const bound = operator === 'lt' ? value - 1n : value;
      upper = bound < (upper ?? MAX_LONG) ? bound : (upper ?? MAX_LONG);
      upperCount += 1;
    }
  }

  if (strict) {
    if (!allowNe && ne.size > 0) throw ApiError.badRequest('Not equals operator not supported for timestamp param');
    if (lowerCount > 1) throw ApiError.badRequest('Multiple gt or gte operators not permitted for timestamp param');
    if (upperCount > 1) throw ApiError.badRequest('Multiple lt or lte operators not permitted for timestamp param');
    if (eq.size > 0 && (lowerCount > 0 || upperCount > 0 || ne.size > 0)) {
      throw ApiError.badRequest('Cannot combine eq with ne, gt, gte, lt, or lte for timestamp param');
    }
  }
  if (!allowOpenRange && eq.size === 0 && (lowerCount === 0 || upperCount === 0)) {
    throw ApiError.badRequest('Timestamp range must have gt (or gte) and lt (or lte), or eq operator');
  }

  const width = lower !== null && upper !== null ? upper - lower + 1n : null;
  if (validateRange && width !== null && (width > options.maxRangeNs || width <= 0n)) {
    throw ApiError.badRequest(
      `Timestamp range by the lower and upper bounds must be positive and within ${options.maxRange}`,
    );
  }
  return { lower, upper, empty: width !== null && width <= 0n, eq: [...eq], ne: [...ne] };
}
