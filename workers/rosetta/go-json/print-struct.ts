import { z } from 'zod';
import { goJson } from './marshal.ts';

/**
 * A value as the Mesh SDK's `types.PrintStruct` writes it into its messages (`network identifier {...} is not
 * supported`): the Go struct's JSON, fields in struct order. Pointer, slice and map members of the Mesh types are
 * mostly `omitempty`, so an absent optional member is left out and so is an empty map or slice; a pointer member that
 * is not (`Operation.operation_identifier`, `Amount.currency`), marked with `goNilShown`, prints as `null`, as does
 * `undefined` itself (a nil pointer).
 */
export function printStruct(schema: z.ZodType, value: unknown): string {
  return goJson(value === undefined ? null : goValue(schema, value));
}

function goValue(schema: z.ZodType, value: unknown): unknown {
  const target = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
  if (target instanceof z.ZodObject) {
    const shape = target.shape as Record<string, z.ZodType>;
    const out: Record<string, unknown> = {};
    for (const [name, member] of Object.entries(shape)) {
      const field = (value as Record<string, unknown>)[name];
      if (member instanceof z.ZodOptional && !nilShown(member) && isOmitted(member.unwrap() as z.ZodType, field)) {
        continue;
      }
      out[name] = field === undefined ? null : goValue(member, field);
    }
    return out;
  }
  if (target instanceof z.ZodArray && Array.isArray(value)) {
    return value.map((item) => (item === undefined ? null : goValue(target.element as z.ZodType, item)));
  }
  return target instanceof z.ZodRecord ? sortedMap(value) : value;
}

/** A pointer member without `omitempty`: nil prints as `null`. */
export const goNilShown = { goNilShown: true } as const;

const nilShown = (member: z.ZodType): boolean =>
  (member.meta() as { goNilShown?: boolean } | undefined)?.goNilShown === true;

/** A `map[string]interface{}` as Go writes it: keys sorted, at every depth. */
function sortedMap(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedMap);
  if (typeof value !== 'object' || value === null) return value;
  const keys = Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((key) => [key, sortedMap((value as Record<string, unknown>)[key])]));
}

/** Go's `omitempty`: a nil pointer, and a map or slice of length 0 (a pointer to an empty struct is kept). */
function isOmitted(target: z.ZodType, value: unknown): boolean {
  if (value === undefined) return true;
  if (target instanceof z.ZodArray) return (value as unknown[]).length === 0;
  if (target instanceof z.ZodRecord) return Object.keys(value as object).length === 0;
  return false;
}
