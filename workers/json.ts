declare global {
  interface JSON {
    rawJSON(text: string): unknown;
  }
  interface BigInt {
    toJSON(): unknown;
  }
}

// JSON.stringify asks a value for toJSON before it gives up on a bigint: answering with the raw integer literal
// lets the whole body serialize natively, where a replacer function would be called for every value in it.
Object.defineProperty(BigInt.prototype, 'toJSON', {
  value(this: bigint) {
    return JSON.rawJSON(this.toString());
  },
  configurable: true,
  writable: true,
});

/**
 * JSON text in which bigint values are written as plain integer literals, as the reference writes 64-bit
 * numbers (`"amount": 9223372036854775807`), instead of throwing or losing precision.
 */
export function stringifyJson(value: unknown): string {
  return JSON.stringify(value);
}
