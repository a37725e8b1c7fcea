import { stringifyJson } from '../../json.ts';

const HTML_UNSAFE = /[<>&\u2028\u2029]/g;

/**
 * JSON text as Go's encoding/json writes it (the reference's bodies, and the request values its messages quote):
 * compact, `<`, `>`, `&`, U+2028 and U+2029 escaped as `\u003c` and so on (they only occur inside strings, so the
 * whole text can be rewritten), bigint values as integer literals. Keys keep the order of the object: callers build
 * structs in the Go struct's field order and maps with sorted keys, as Go writes them.
 */
export function goJson(value: unknown): string {
  return stringifyJson(value).replace(HTML_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
