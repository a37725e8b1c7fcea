import { ApiError } from '../errors.ts';

/**
 * Reads a raw query string the way the reference does: `qs.parse` (arrayLimit = maxRepeatedQueryParameters,
 * depth 1, strictDepth, throwOnLimitExceeded), then parameter names lowercased and their values merged, with the
 * values of `order` and `result` lowercased too. Every quirk that changes a response is kept: the order of
 * values follows each spelling's first appearance (`a=1&A=2&a=3` gives `a: [1, 3, 2]`), integer-like names
 * come first, names of `Object.prototype` members are dropped, a name repeated past the limit is a 400.
 */

/** A value the reference parses into a nested object (`a[b]=1`); the reference answers it with a 500, we with a 400. */
export const STRUCTURED: unique symbol = Symbol('structured');
export type RawValue = string | typeof STRUCTURED;

export interface RawParam {
  /** Lowercased name. */
  key: string;
  values: RawValue[];
}

const PARAMETER_LIMIT = 1000;
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));
const LOWERCASED_VALUES = new Set(['order', 'result']);

const arrayLimitError = (limit: number) =>
  ApiError.badRequest(`Array limit exceeded. Only ${limit} element${limit === 1 ? '' : 's'} allowed in an array.`);

const decode = (text: string): string => {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
};

const isArrayIndex = (name: string): boolean => /^(0|[1-9]\d*)$/.test(name) && Number(name) < 2 ** 32 - 1;

/** JavaScript's own-key order for plain objects: array indexes ascending, then the rest by insertion. */
function objectOrder<V>(entries: Map<string, V>): [string, V][] {
  const all = [...entries];
  const indexes = all.filter(([name]) => isArrayIndex(name)).sort(([a], [b]) => Number(a) - Number(b));
  return [...indexes, ...all.filter(([name]) => !isArrayIndex(name))];
}

/**
 * qs's value for one name: one string, an array (of strings or nested values; sparse after `a[3]=x` until the
 * final compaction), an array grown past the limit (qs makes it an object with index keys), or a nested object.
 */
type QsValue = { shape: 'single' | 'array' | 'overflow'; items: RawValue[] } | { shape: 'nested' };

const NESTED: QsValue = { shape: 'nested' };
const single = (item: RawValue): QsValue => ({ shape: 'single', items: [item] });

function collectPairs(search: string, limit: number): Map<string, QsValue> {
  const text = (search.startsWith('?') ? search.slice(1) : search).replace(/%5B/gi, '[').replace(/%5D/gi, ']');
  const parts = text.split('&');
  if (parts.length > PARAMETER_LIMIT) {
    throw ApiError.badRequest(`Parameter limit exceeded. Only ${PARAMETER_LIMIT} parameters allowed.`);
  }
  const pairs = new Map<string, QsValue>();
  for (const part of parts) {
    const bracketEquals = part.indexOf(']=');
    const pos = bracketEquals === -1 ? part.indexOf('=') : bracketEquals + 1;
    const name = decode(pos === -1 ? part : part.slice(0, pos));
    const current = pairs.get(name);
    // qs checks the limit only for `name=value` parts, and only once the name holds an array
    if (pos !== -1 && (current?.shape === 'array' ? current.items.length : 0) >= limit) throw arrayLimitError(limit);
    const value = pos === -1 ? '' : decode(part.slice(pos + 1));
    if (current === undefined || current.shape === 'nested') pairs.set(name, single(value));
    else {
      const items = [...current.items, value];
      pairs.set(name, { shape: current.shape === 'overflow' || items.length > limit ? 'overflow' : 'array', items });
    }
  }
  return pairs;
}

/** Where qs puts a raw name: under `name`, or nowhere; `[]` and `[n]` suffixes append, other brackets nest. */
function placePair(rawName: string, value: QsValue, limit: number): [string, QsValue][] {
  const group = /\[[^[\]]*]/.exec(rawName);
  const parent = group ? rawName.slice(0, group.index) : rawName;
  if (parent !== '' && PROTOTYPE_NAMES.has(parent)) return [];
  if (!group) return parent === '' ? [] : [[parent, value]];
  const content = group[0].slice(1, -1);
  if (PROTOTYPE_NAMES.has(content)) return [];
  if (/\[[^[\]]*]/.test(rawName.slice(group.index + group[0].length))) {
    throw ApiError.badRequest('Input depth exceeded depth option of 1 and strictDepth is true');
  }
  const index = Number.parseInt(content, 10);
  const isIndex = String(index) === content && index >= 0;
  if (isIndex && index >= limit) throw arrayLimitError(limit);
  if (content === '' || isIndex) {
    if (parent === '') {
      // a top-level array lands under its indexes
      if (isIndex) return [[content, value]];
      return value.shape === 'nested' ? [] : value.items.map((item, i) => [String(i), single(item)]);
    }
    if (content === '') {
      if (value.shape !== 'single' && value.shape !== 'array') return [[parent, NESTED]];
      return [[parent, value.items.length > limit ? NESTED : { shape: 'array', items: value.items }]];
    }
    const items: RawValue[] = [];
    items[index] = value.shape === 'single' ? (value.items[0] ?? '') : STRUCTURED;
    return [[parent, { shape: 'array', items }]];
  }
  return [[parent === '' ? content : parent, parent === '' ? value : NESTED]];
}

/** qs's `utils.merge` for two values of one name. */
function mergeQs(target: QsValue, source: QsValue, limit: number): QsValue {
  // qs skips a falsy source: an empty value merged into an existing one vanishes
  if (source.shape === 'single' && source.items[0] === '') return target;
  if (target.shape === 'nested' || target.shape === 'overflow') return NESTED;
  if (source.shape === 'nested' || source.shape === 'overflow') return NESTED;
  if (target.shape === 'single') {
    const items = target.items.concat(source.items);
    return source.shape === 'array' && items.length > limit ? NESTED : { shape: 'array', items };
  }
  const items = target.items.slice();
  if (source.shape === 'single') {
    if (items.length > limit) return NESTED;
    items[items.length] = source.items[0] ?? '';
    return { shape: 'array', items };
  }
  // by index: a free slot takes the item, a taken one appends it (two nested values merge into one)
  source.items.forEach((item, i) => {
    if (!(i in items)) items[i] = item;
    else if (item !== STRUCTURED || items[i] !== STRUCTURED) items[items.length] = item;
  });
  return { shape: 'array', items };
}

/**
 * The parameters of a query string (`URL.search`: one leading `?` is dropped) in the reference's order, names
 * lowercased. `arrayLimit` is `query.maxRepeatedQueryParameters`.
 */
export function parseQueryString(search: string, arrayLimit: number): RawParam[] {
  const placed = new Map<string, QsValue>();
  for (const [rawName, value] of objectOrder(collectPairs(search, arrayLimit))) {
    if (rawName === '') continue;
    for (const [name, placedValue] of placePair(rawName, value, arrayLimit)) {
      const existing = placed.get(name);
      placed.set(name, existing === undefined ? placedValue : mergeQs(existing, placedValue, arrayLimit));
    }
  }

  const merged = new Map<string, RawValue[]>();
  for (const [name, value] of objectOrder(placed)) {
    const key = name.toLowerCase();
    // filter() drops the holes of sparse arrays, as qs's final compaction does
    let values: RawValue[] =
      value.shape === 'single' || value.shape === 'array' ? value.items.filter(() => true) : [STRUCTURED];
    if (LOWERCASED_VALUES.has(key)) values = values.map((v) => (typeof v === 'string' ? v.toLowerCase() : v));
    // the reference merges into a plain object with `in`, so an inherited member (`constructor`) joins the values
    const existing = merged.get(key) ?? (PROTOTYPE_NAMES.has(key) ? [STRUCTURED] : []);
    merged.set(key, [...existing, ...values]);
  }
  return objectOrder(merged).map(([key, values]) => ({ key, values }));
}
