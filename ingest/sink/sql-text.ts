/**
 * Values → the text form Postgres parses for a column type. Every bulk write sends its columns as `text[]`
 * arrays that the statement unnests and casts, so one code path serves every table and type (bytea as `\x…`,
 * arrays as array literals, jsonb as JSON with exact int64 numbers).
 */

export function byteaText(bytes: Uint8Array): string {
  return `\\x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
}

/** JSON with bigint written as bare numbers (exact), bytes never expected inside. */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? `__big${v}__` : v)).replace(
    /"__big(-?\d+)__"/g,
    '$1',
  );
}

function arrayElement(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  const text = sqlText(value, false);
  return `"${(text ?? '').replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/** The text of one value; `null` for SQL NULL. `asJson` marks jsonb columns (objects and arrays as JSON). */
export function sqlText(value: unknown, asJson: boolean): string | null {
  if (value === null || value === undefined) return null;
  if (asJson) return jsonText(value);
  switch (typeof value) {
    case 'string':
      return value;
    case 'bigint':
    case 'number':
      return value.toString();
    case 'boolean':
      return value ? 't' : 'f';
    default:
      break;
  }
  if (value instanceof Uint8Array) return byteaText(value);
  if (Array.isArray(value)) return `{${value.map(arrayElement).join(',')}}`;
  return jsonText(value);
}

/**
 * A `text[]` parameter's literal, spelled as node-postgres spells a JavaScript array (every element quoted, NULL
 * bare), so that a statement built away from the connection sends the same bytes.
 */
export function textArray(values: readonly (string | null)[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (i > 0) out += ',';
    out +=
      value === null || value === undefined ? 'NULL' : `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  }
  return `${out}}`;
}

/** `[lower,upper)` with an open upper bound when `upper` is undefined. */
export function rangeText(lower: bigint, upper?: bigint): string {
  return `[${lower},${upper ?? ''})`;
}
