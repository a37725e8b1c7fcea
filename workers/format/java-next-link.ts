import { parseJavaLong, wrapLong } from '../params/java/numbers.ts';
import type { ServletParams } from '../params/java/servlet-query.ts';

/**
 * `links.next` as the reference's Java process builds it (its `LinkFactory`): every query parameter as given
 * (names in order of first appearance, values decoded and re-encoded), except that the sort fields' bounds in the
 * paging direction are replaced by the last item's values (`registerednode.id=gt:3`). A sort field given with
 * `eq` (or with no operator, or `ne`) is left as it is. Null when the new bounds leave the first sort field an
 * empty range.
 */
export interface JavaNextLinkOptions {
  /** The request path, e.g. `/api/v1/network/nodes`. */
  path: string;
  params: ServletParams;
  /** Sort fields (query parameter names), the first one primary. */
  sort: readonly string[];
  order: 'asc' | 'desc';
  /** The last item's value of each sort field. */
  last: Readonly<Record<string, string>>;
}

const RANGE_PREFIXES = ['gt:', 'gte:', 'lt:', 'lte:'];

const isSameDirection = (order: 'asc' | 'desc', value: string): boolean => {
  const normalized = value.toLowerCase();
  return order === 'asc'
    ? normalized.startsWith('gt:') || normalized.startsWith('gte:')
    : normalized.startsWith('lt:') || normalized.startsWith('lte:');
};

const hasEq = (value: string): boolean => {
  const normalized = value.toLowerCase();
  return normalized.startsWith('eq:') || !RANGE_PREFIXES.some((prefix) => normalized.startsWith(prefix));
};

export function javaNextLink(options: JavaNextLinkOptions): string | null {
  const { order, last, sort } = options;
  const query = new Map<string, string[]>();
  const add = (key: string, value: string) => {
    const values = query.get(key);
    if (values) values.push(value);
    else query.set(key, [value]);
  };

  for (const [key, values] of options.params) {
    for (const value of values) {
      if (!Object.hasOwn(last, key) || !isSameDirection(order, value)) add(key, value);
    }
  }
  const withEq = new Map(sort.map((key) => [key, (query.get(key) ?? []).some(hasEq)]));
  sort.forEach((key, i) => {
    if (query.has(key) && withEq.get(key)) return;
    const next = sort[i + 1];
    const exclusive = next === undefined ? true : withEq.get(next) === true;
    const operator = order === 'asc' ? (exclusive ? 'gt' : 'gte') : exclusive ? 'lt' : 'lte';
    add(key, `${operator}:${last[key]}`);
  });

  const primary = sort[0];
  if (primary !== undefined && isEmptyRange(query.get(primary) ?? [])) return null;

  const pairs: string[] = [];
  for (const [key, values] of query) {
    for (const value of values) pairs.push(`${encodeQueryParam(key)}=${encodeQueryParam(value)}`);
  }
  return `${options.path}?${pairs.join('&')}`;
}

function isEmptyRange(values: readonly string[]): boolean {
  let lower = -(2n ** 63n);
  let upper = 2n ** 63n - 1n;
  for (const value of values) {
    const normalized = value.toLowerCase();
    const prefix = ['gte:', 'gt:', 'lte:', 'lt:'].find((p) => normalized.startsWith(p));
    if (!prefix) continue;
    const number = parseJavaLong(value.slice(prefix.length));
    if (number === undefined) continue;
    if (prefix === 'gt:') lower = max(lower, wrapLong(number + 1n));
    else if (prefix === 'gte:') lower = max(lower, number);
    else if (prefix === 'lt:') upper = min(upper, wrapLong(number - 1n));
    else upper = min(upper, number);
  }
  return upper < lower;
}

const max = (a: bigint, b: bigint) => (a > b ? a : b);
const min = (a: bigint, b: bigint) => (a < b ? a : b);

const encoder = new TextEncoder();
// Characters a query parameter keeps as they are: RFC 3986 pchar without `&` and `=`, plus `/` and `?`.
const QUERY_PARAM_CHAR = /[A-Za-z0-9\-._~!$'()*+,;:@/?]/;

/** Spring's encoding of a query parameter name or value: every other UTF-8 byte as `%XX`. */
function encodeQueryParam(text: string): string {
  let out = '';
  for (const byte of encoder.encode(text)) {
    const char = String.fromCharCode(byte);
    out += byte < 0x80 && QUERY_PARAM_CHAR.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
