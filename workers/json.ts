declare global {
  interface JSON {
    rawJSON(text: string): unknown;
  }
}

/**
 * JSON text in which bigint values are written as plain integer literals, as the reference writes 64-bit
 * numbers (`"amount": 9223372036854775807`), instead of throwing or losing precision.
 */
export function stringifyJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? JSON.rawJSON(v.toString()) : v));
}
