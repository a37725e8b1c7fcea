import { ApiError } from '../../errors.ts';
import { commaSeparated, requestParam } from '../../params/java/binding.ts';
import { javaBadRequest } from '../../params/java/errors.ts';
import { type Direction, javaTrim, parseDirection, parseSpringInt } from '../../params/java/numbers.ts';
import type { RangeParam } from '../../params/java/range.ts';
import type { ServletParams } from '../../params/java/servlet-query.ts';

/**
 * The `@RequestParam`s shared by the Java-served account routes (NFT allowances, airdrops): `limit`
 * (`@Positive @Max(100)`, default 25), `order` (default `asc`) and range parameter arrays (`@Size(max = 2)`).
 */

export const JAVA_DEFAULT_LIMIT = '25';
export const JAVA_MAX_LIMIT = 100;
const MAX_RANGE_PARAMS = 2;

const first = (arg: string | readonly string[]): string => (typeof arg === 'string' ? arg : (arg[0] ?? ''));

export const limitRequestParam = (params: ServletParams): number =>
  requestParam(params, 'limit', { defaultValue: JAVA_DEFAULT_LIMIT, convert: (arg) => parseSpringInt(first(arg)) }) ??
  Number(JAVA_DEFAULT_LIMIT);

export const orderRequestParam = (params: ServletParams): Direction =>
  requestParam(params, 'order', { defaultValue: 'asc', convert: (arg) => parseDirection(first(arg)) }) ?? 'asc';

/** Spring's text to boolean conversion: `true`, `on`, `yes`, `1` or `false`, `off`, `no`, `0`, any case, trimmed. */
export function parseSpringBoolean(text: string): boolean | undefined {
  const value = javaTrim(text).toLowerCase();
  if (['true', 'on', 'yes', '1'].includes(value)) return true;
  if (['false', 'off', 'no', '0'].includes(value)) return false;
  return undefined;
}

export const booleanRequestParam = (params: ServletParams, name: string, defaultValue: boolean): boolean =>
  requestParam(params, name, {
    defaultValue: String(defaultValue),
    convert: (arg) => parseSpringBoolean(first(arg)),
  }) ?? defaultValue;

/** A range parameter array: one value splits at commas, several convert one by one. */
export function rangeRequestParam(
  params: ServletParams,
  name: string,
  convert: (text: string) => RangeParam | undefined,
): RangeParam[] {
  return (
    requestParam(params, name, {
      convert: (arg) => {
        const parsed = (typeof arg === 'string' ? commaSeparated(arg) : arg).map(convert);
        return parsed.every((param) => param !== undefined) ? (parsed as RangeParam[]) : undefined;
      },
    }) ?? []
  );
}

/**
 * The method's constraint violations, reported together once every parameter has converted: each a
 * `Bad Request` message with its reason, in parameter order.
 */
export function checkConstraints(checks: readonly { name: string; limit?: number; ranges?: readonly unknown[] }[]) {
  const details: string[] = [];
  for (const { name, limit, ranges } of checks) {
    if (limit !== undefined && limit < 1) details.push(`${name} must be greater than 0`);
    if (limit !== undefined && limit > JAVA_MAX_LIMIT) details.push(`${name} must be less than or equal to 100`);
    if (ranges !== undefined && ranges.length > MAX_RANGE_PARAMS) {
      details.push(`${name} size must be between 0 and ${MAX_RANGE_PARAMS}`);
    }
  }
  if (details.length === 1) throw javaBadRequest(details[0] as string);
  if (details.length > 1)
    throw new ApiError(
      400,
      details.map((detail) => ({ message: 'Bad Request', detail })),
    );
}
