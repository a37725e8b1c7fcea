import { bindingFailed, conversionFailed, javaBadRequest } from './errors.ts';
import { isJavaBlank, javaTrim } from './numbers.ts';
import type { ServletParams } from './servlet-query.ts';

/**
 * How the Java process fills a request object from the query (its `@RequestParameter` resolver): for each field
 * in declaration order, the parameter's values, or its default when the first value is blank; a second value for
 * a single-valued field fails at once (`Only a single instance is supported for limit`). Then every value is
 * converted and the object validated; all fields that fail are reported together as `Invalid parameter: <name>`,
 * conversion failures first.
 */
export interface FieldSpec<V> {
  /** The query parameter's name (case-sensitive). */
  name: string;
  /** Takes every value (a list field) instead of exactly one. */
  multiple?: boolean;
  /** Used when the parameter is absent or its first value blank; without it the field keeps `initial`. */
  defaultValue?: string;
  initial: V;
  /** Converts the raw value(s): one string, or all of them for a list field. Undefined means it does not convert. */
  convert(values: readonly string[]): V | undefined;
  /** The field's constraints (`@Min`, `@Max`, `@Size`) on the converted value. */
  valid?(value: V): boolean;
}

type Values<S extends Record<string, FieldSpec<unknown>>> = { [K in keyof S]: S[K]['initial'] };

export function bindRequest<S extends Record<string, FieldSpec<unknown>>>(params: ServletParams, spec: S): Values<S> {
  const raw = new Map<keyof S, readonly string[]>();
  for (const key of Object.keys(spec) as (keyof S)[]) {
    const field = spec[key] as FieldSpec<unknown>;
    let values = params.get(field.name);
    if (!values || values.length === 0 || isJavaBlank(values[0] as string)) {
      values = field.defaultValue === undefined ? undefined : [field.defaultValue];
    }
    if (!values) continue;
    if (!field.multiple && values.length > 1) {
      throw javaBadRequest(`Only a single instance is supported for ${field.name}`);
    }
    raw.set(key, values);
  }

  const result = {} as Values<S>;
  const conversionErrors: string[] = [];
  for (const key of Object.keys(spec) as (keyof S)[]) {
    const field = spec[key] as FieldSpec<unknown>;
    const values = raw.get(key);
    let value = field.initial;
    if (values) {
      const converted = field.convert(values);
      if (converted === undefined) conversionErrors.push(field.name);
      else value = converted;
    }
    result[key] = value as Values<S>[keyof S];
  }
  const validationErrors = (Object.keys(spec) as (keyof S)[])
    .filter((key) => {
      const field = spec[key] as FieldSpec<unknown>;
      return field.valid !== undefined && !field.valid(result[key]);
    })
    .map((key) => (spec[key] as FieldSpec<unknown>).name);
  const errors = [...conversionErrors, ...validationErrors];
  if (errors.length > 0) throw bindingFailed(errors);
  return result;
}

/**
 * A controller method's `@RequestParam`, as Spring resolves it: absent, or `""` with a default, gives the default;
 * one value is converted from its text (where a list parameter splits it at commas); several are converted as a
 * list (where a single-valued parameter takes the first). A value that does not convert fails the request with
 * `Failed to convert '<name>'`.
 */
export function requestParam<V>(
  params: ServletParams,
  name: string,
  options: { defaultValue?: string; convert(value: string | readonly string[]): V | undefined },
): V | undefined {
  const values = params.get(name);
  let arg: string | readonly string[] | undefined = values?.length === 1 ? values[0] : values;
  if ((arg === undefined || arg === '') && options.defaultValue !== undefined) arg = options.defaultValue;
  if (arg === undefined) return undefined;
  const value = options.convert(arg);
  if (value === undefined) throw conversionFailed(name);
  return value;
}

/** Spring's conversion of a single text to an array: split at commas, each element trimmed. */
export function commaSeparated(text: string): string[] {
  return text === '' ? [] : text.split(',').map(javaTrim);
}
