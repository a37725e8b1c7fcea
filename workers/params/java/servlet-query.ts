/**
 * The query string as the reference's Java process sees it: the servlet container's parameter map. Unlike the
 * JavaScript process, names keep their case (`Limit` is not `limit`), a name without `=` has the value `""`, and
 * nothing is nested or merged. Names are kept in order of first appearance, values in order given.
 */
export type ServletParams = ReadonlyMap<string, readonly string[]>;

const HEX_PAIR = /^[0-9a-fA-F]{2}$/;
const utf8 = new TextDecoder('utf-8');
const encoder = new TextEncoder();

/** `application/x-www-form-urlencoded` decoding; undefined for a malformed `%` escape (the container drops it). */
function decode(text: string): string | undefined {
  if (!text.includes('%') && !text.includes('+')) return text;
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (char === '+') bytes.push(0x20);
    else if (char === '%') {
      const pair = text.slice(i + 1, i + 3);
      if (!HEX_PAIR.test(pair)) return undefined;
      bytes.push(Number.parseInt(pair, 16));
      i += 2;
    } else {
      const code = char.codePointAt(0) as number;
      if (code > 0xffff) i++;
      bytes.push(...encoder.encode(String.fromCodePoint(code)));
    }
  }
  return utf8.decode(new Uint8Array(bytes));
}

/** The parameters of a raw query string (with or without its leading `?`). */
export function servletParams(search: string): Map<string, string[]> {
  const params = new Map<string, string[]>();
  const text = search.startsWith('?') ? search.slice(1) : search;
  for (const part of text.split('&')) {
    if (part === '') continue;
    const equals = part.indexOf('=');
    const rawName = equals === -1 ? part : part.slice(0, equals);
    // a pair without a name is skipped, as is one that does not decode
    if (rawName === '') continue;
    const name = decode(rawName);
    const value = equals === -1 ? '' : decode(part.slice(equals + 1));
    if (name === undefined || value === undefined) continue;
    const values = params.get(name);
    if (values) values.push(value);
    else params.set(name, [value]);
  }
  return params;
}
