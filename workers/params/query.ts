import { ApiError, invalidParamMessages, tooManyValuesMessage, unknownParamMessages } from '../errors.ts';
import {
  type Filter,
  isOperator,
  type ParamParser,
  type Split,
  splitFilterValue,
  splitStrictValue,
} from './filters.ts';
import { parseQueryString, STRUCTURED } from './query-string.ts';
import { booleanParam, nonceParam } from './scalars.ts';

/** The query parameters a route accepts (lowercase names), each with its value parser. */
export type ParamSpec = Readonly<Record<string, ParamParser<unknown>>>;

type ParsedBy<P> = P extends ParamParser<infer V> ? V : never;

/** One filter per given value, typed by its key. */
export type FilterOf<S extends ParamSpec> = { [K in keyof S & string]: Filter<K, ParsedBy<S[K]>> }[keyof S & string];

export interface QueryOptions {
  /** `query.maxRepeatedQueryParameters`. */
  maxRepeated: number;
  /**
   * Validate like the reference's older `validateReq` (accounts list, balances, schedule / topic message by id,
   * contract result by id): messages in parameter order, one `Unknown query parameter` per name, and a value
   * with two `:` is invalid. By default the newer `buildAndValidateFilters` rules apply: over-repeated names
   * first, then every invalid value, then one `Unknown query parameter` per unknown value, and `a:op:v` reads as
   * `op:v`.
   */
  legacy?: boolean;
}

/**
 * Parses and validates a raw query string (`URL.search`) against the parameters a route accepts and returns
 * its filters in the reference's order (parameters by first appearance, values in the order given). All
 * problems found are reported together in one 400.
 */
export function parseQuery<S extends ParamSpec>(search: string, spec: S, options: QueryOptions): FilterOf<S>[] {
  // Most requests of single resources have no query: nothing to parse, nothing to reject.
  if (search === '') return [];
  const { maxRepeated, legacy = false } = options;
  const filters: Filter[] = [];
  const tooMany: string[] = [];
  const invalid: string[] = [];
  const unknown: string[] = [];
  const ordered: string[] = [];
  let deferred: ApiError | undefined;

  const check = (key: string, parse: ParamParser<unknown>, raw: string): boolean => {
    const split: Split | undefined = legacy ? splitStrictValue(raw) : splitFilterValue(raw);
    if (!split || !isOperator(split.operator)) return false;
    try {
      const value = parse(split.value, split.operator);
      if (value === undefined) return false;
      filters.push({ key, operator: split.operator, value });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      deferred ??= error;
    }
    return true;
  };

  for (const { key, values } of parseQueryString(search, maxRepeated)) {
    const parse = Object.hasOwn(spec, key) ? spec[key] : undefined;
    if (legacy && !parse) {
      ordered.push(...unknownParamMessages(key));
      continue;
    }
    if (values.length > maxRepeated) {
      (legacy ? ordered : tooMany).push(tooManyValuesMessage(key, values.length, maxRepeated));
      continue;
    }
    for (const raw of values) {
      // The reference crashes with a 500 on a nested value (`limit[lt]=1`) once it reads it; a client's mistake
      // is a 400 here, as for any other value the parameter does not take.
      if (!parse) unknown.push(...unknownParamMessages(key));
      else if (raw === STRUCTURED) (legacy ? ordered : invalid).push(...invalidParamMessages(key));
      else if (!check(key, parse, raw)) (legacy ? ordered : invalid).push(...invalidParamMessages(key));
    }
  }

  // the reference converts values (and so fails on out-of-range ids) only when none is invalid or unknown
  if (deferred && invalid.length === 0 && unknown.length === 0 && (!legacy || ordered.length === 0)) {
    throw deferred;
  }
  const messages = legacy ? ordered : [...tooMany, ...invalid, ...unknown];
  if (messages.length > 0) throw ApiError.badRequest(messages);
  return filters as FilterOf<S>[];
}

/** The value of the last filter for `key` (for parameters where the last one given wins). */
export function lastValue<F extends Filter, K extends F['key']>(
  filters: readonly F[],
  key: K,
): Extract<F, { key: K }>['value'] | undefined {
  return filters.findLast((filter): filter is Extract<F, { key: K }> => filter.key === key)?.value;
}

/**
 * The query of `GET /api/v1/transactions/{transactionIdOrHash}`: `nonce` (int32 >= 0) and `scheduled`
 * (`true` / `false`, any case), `eq` only; for each, the last value given wins.
 */
export function parseTransactionByIdQuery(
  search: string,
  options: QueryOptions,
): { nonce: number | undefined; scheduled: boolean | undefined } {
  const filters = parseQuery(search, { nonce: nonceParam, scheduled: booleanParam }, options);
  return { nonce: lastValue(filters, 'nonce'), scheduled: lastValue(filters, 'scheduled') };
}
