import type { Order } from '../params/limit-order.ts';
import { parseQueryString, type RawValue, STRUCTURED } from '../params/query-string.ts';

/** The last item's value of a cursor field; `inclusive` makes the bound `gte`/`lte` instead of `gt`/`lt`. */
export type CursorValue =
  | string
  | bigint
  | number
  | { value: string | bigint | number; inclusive?: boolean; primary?: boolean };

export interface NextLinkOptions {
  /** The request URL (its path and query are repeated). */
  url: string;
  order: Order;
  /**
   * Cursor fields in order, each with the value of the last item. The first field (or the one marked `primary`)
   * decides whether a next page can exist at all.
   */
  cursor: Readonly<Record<string, CursorValue>>;
  maxRepeated: number;
  /** The numeric value of a bound on the primary field (`timestamp=lt:1.2` → 1200000000n), to spot an empty range. */
  boundValue?: (field: string, value: string) => bigint | undefined;
  /** `response.includeHostInLink`: absolute instead of relative links. */
  includeHost?: boolean;
}

const RANGE_OPERATOR = /^[gl]t[e]?:/;
const FOLLOWING_OPERATOR: Record<Order, RegExp> = { asc: /gt[e]?:/, desc: /lt[e]?:/ };

/**
 * `links.next` as the reference builds it: the request's query (names lowercased and merged as parsed), with the
 * cursor fields' bounds in the paging direction replaced by the last item's value, e.g. `?limit=2&timestamp=lt:1.5`;
 * null when the page is the last one or the new bounds leave an empty range.
 */
export function nextLink(options: NextLinkOptions): string | null {
  const url = new URL(options.url);
  const query = new Map<string, string | string[]>();
  for (const { key, values } of parseQueryString(url.search, options.maxRepeated)) {
    const texts = values.filter((v: RawValue): v is string => v !== STRUCTURED);
    query.set(key, texts.length === 1 && values.length === 1 ? (texts[0] as string) : texts);
  }
  const following = FOLLOWING_OPERATOR[options.order];
  const operator = options.order === 'asc' ? 'gt' : 'lt';
  let primary: string | undefined;
  for (const [field, cursor] of Object.entries(options.cursor)) {
    const {
      value,
      inclusive = false,
      isPrimary = false,
    } = typeof cursor === 'object' ? { ...cursor, isPrimary: cursor.primary } : { value: cursor };
    replaceBound(query, field, following, `${operator}${inclusive ? 'e' : ''}:${value}`);
    primary ??= field;
    if (isPrimary) primary = field;
  }
  if (primary !== undefined && isEmptyRange(query.get(primary), primary, options.boundValue)) return null;

  let search = '';
  for (const [key, value] of query) {
    for (const v of Array.isArray(value) ? value : [value]) search += `${search === '' ? '?' : '&'}${key}=${v}`;
  }
  const path = url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname;
  return `${options.includeHost ? url.origin : ''}${path}${search}`;
}

/**
 * Drops the field's bounds in the paging direction and adds the new one. Kept as the reference does it: a field
 * given once (and so dropped) moves to the end of the query; a field given several times keeps its place.
 */
function replaceBound(query: Map<string, string | string[]>, field: string, following: RegExp, bound: string) {
  const original = query.get(field);
  if (Array.isArray(original))
    query.set(
      field,
      original.filter((v) => !following.test(v)),
    );
  else if (original !== undefined && following.test(original)) query.delete(field);
  const remaining = query.get(field);
  if (remaining === undefined) {
    query.set(field, bound);
  } else if (RANGE_OPERATOR.test(Array.isArray(original) ? original.join(',') : (original ?? ''))) {
    query.set(field, [...(Array.isArray(remaining) ? remaining : [remaining]), bound]);
  }
}

function isEmptyRange(
  value: string | string[] | undefined,
  field: string,
  boundValue: NextLinkOptions['boundValue'],
): boolean {
  if (value === undefined || !boundValue) return false;
  let lower: bigint | undefined;
  let upper: bigint | undefined;
  for (const text of Array.isArray(value) ? value : [value]) {
    const match = /^(gte?|lte?):(.*)$/.exec(text);
    if (!match?.[1]) continue;
    let bound = boundValue(field, match[2] ?? '');
    if (bound === undefined) continue;
    if (match[1] === 'gt') bound += 1n;
    if (match[1] === 'lt') bound -= 1n;
    if (match[1].startsWith('g')) lower = lower === undefined || bound > lower ? bound : lower;
    else upper = upper === undefined || bound < upper ? bound : upper;
  }
  return lower !== undefined && upper !== undefined && lower > upper;
}
