/**
 * proto3 sends no field that holds its default (0, '', empty bytes), and the reference's Java messages follow
 * that; protobufjs writes every field it is given. Messages are built through `withoutDefaults` so the bytes on the
 * wire are the reference's.
 */
type Field = unknown;

const isDefault = (value: Field) =>
  value === 0 ||
  value === '0' ||
  value === '' ||
  value === false ||
  (value instanceof Uint8Array && value.length === 0);

/** `fields` without the scalar fields that hold their default. */
export function withoutDefaults<T extends Record<string, Field>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => !isDefault(value))) as Partial<T>;
}
