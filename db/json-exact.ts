type Reviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;

/**
 * Integers beyond 2^53 in stored JSON (an NFT serial number of 2^63 - 1, say) come back as bigint, so they reach
 * the client exactly; every other value is what JSON.parse gives. Uses the reviver's source text (V8).
 */
const keepBigIntegers: Reviver = (_key, value, context) => {
  if (typeof value !== 'number' || Number.isSafeInteger(value) || !context?.source) return value;
  return /^-?\d+$/.test(context.source) ? BigInt(context.source) : value;
};

/**
 * An integer beyond 2^53 has at least 16 digits, and a JSON number starts the text or follows `:`, `[` or `,`.
 * Text without such a run (the common case) is parsed without the reviver, which costs a call per value.
 */
const MAYBE_UNSAFE_INTEGER = /(?:^|[:[,])\s*-?\d{16}/;

export function parseJsonExact(text: string): unknown {
  if (!MAYBE_UNSAFE_INTEGER.test(text)) return JSON.parse(text);
  return JSON.parse(text, keepBigIntegers as Parameters<typeof JSON.parse>[1]);
}
