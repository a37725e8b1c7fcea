/**
 * Sends malformed requests to every GET route and counts the answers: each route of the reference's OpenAPI
 * document with its path parameters filled by plausible or malformed values, and its query parameters (plus a
 * few every route meets in the wild) given malformed values, bracketed names (`limit[lt]=1`), operators,
 * repeats, odd letter case and broken percent-encoding. Same seed, same requests.
 */
import { type GetRoute, readGetRoutes } from './get-routes.ts';

export interface FuzzResult {
  readonly requests: number;
  /** Requests answered with a 5xx, or with no answer at all (status 0), with their status. */
  readonly failures: readonly { url: string; status: number }[];
  readonly byStatus: ReadonlyMap<number, number>;
}

const PLAUSIBLE = [
  '0.0.2',
  '2',
  '1001',
  '0.0.1001-1700000000-000000001',
  '1700000000.000000005',
  `0x${'00'.repeat(19)}02`,
];
const MALFORMED = [
  '',
  '-1',
  '0',
  'abc',
  '%00',
  '%ZZ',
  '%',
  '1e400',
  '99999999999999999999999999',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775809',
  '0.0.-1',
  '0.0.99999999999999999999',
  '1.2.3.4',
  '1.2.3',
  '.1',
  '1.',
  'gt:',
  'xx:1',
  'gte:lt:1',
  'eq:eq:1',
  'ne:1',
  'lt:0.0.1',
  "'; drop table transaction; --",
  `0x${'g'.repeat(40)}`,
  `0x${'f'.repeat(41)}`,
  'f'.repeat(96),
  '0.0.1000000000000000000000000000000000000000',
  '0.0.1000000000000000000000000000000000000000-1-1',
  '0.0.1-99999999999999999999-1',
  'A'.repeat(3000),
  '💥',
  'null',
  'true',
  'NaN',
  'Infinity',
  '-0',
  ' 1',
  '[object Object]',
  '__proto__',
  'constructor',
];
/** Parameters real clients send to many routes, whether or not the document lists them there. */
const EXTRA_QUERY = ['encoding', 'sequencenumber', 'result', 'type', 'scheduled', 'account.id', 'limit', 'order'];

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Encoded unless it is meant to arrive as broken percent-encoding. */
const encode = (value: string) => (/^%/.test(value) ? value : encodeURIComponent(value));

/** `count` malformed requests (paths and queries, starting with `/`), taking the routes in turn. */
export function malformedRequests(routes: readonly GetRoute[], count: number, seed: number): string[] {
  const next = random(seed);
  return Array.from({ length: count }, (_, i) => malformedRequest(routes[i % routes.length] as GetRoute, next));
}

function malformedRequest(route: GetRoute, next: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  let path = route.path;
  for (const name of route.pathParams)
    path = path.replace(`{${name}}`, encode(pick(next() < 0.4 ? PLAUSIBLE : MALFORMED)));
  const names = [...route.queryParams, ...EXTRA_QUERY];
  const pairs: string[] = [];
  const count = 1 + Math.floor(next() * 3);
  for (let i = 0; i < count; i++) {
    const name = pick(names);
    const value = encode(pick(next() < 0.3 ? PLAUSIBLE : MALFORMED));
    const shape = next();
    if (shape < 0.15) pairs.push(`${name}[${pick(['lt', 'gt', '', '0', '1', 'a][b'])}]=${value}`);
    else if (shape < 0.25) pairs.push(...Array.from({ length: 2 + Math.floor(next() * 4) }, () => `${name}=${value}`));
    else if (shape < 0.28) pairs.push(...Array.from({ length: 101 }, () => `${name}=${value}`));
    else if (shape < 0.35) pairs.push(`${name.toUpperCase()}=${value}`);
    else if (shape < 0.45) pairs.push(`${name}=${pick(['gt', 'gte', 'lt', 'lte', 'eq', 'ne', 'xx'])}:${value}`);
    else if (shape < 0.5) pairs.push(name);
    else pairs.push(`${name}=${value}`);
  }
  return `${path}?${pairs.join('&')}`;
}

export async function fuzzGetRoutes(options: {
  baseUrl: string;
  requests: number;
  seed?: number;
  concurrency?: number;
  routes?: readonly GetRoute[];
}): Promise<FuzzResult> {
  const urls = malformedRequests(options.routes ?? readGetRoutes(), options.requests, options.seed ?? 28);
  const byStatus = new Map<number, number>();
  const failures: { url: string; status: number }[] = [];
  let at = 0;
  const client = async () => {
    while (at < urls.length) {
      const url = urls[at++] as string;
      let status = 0;
      try {
        const res = await fetch(options.baseUrl + url);
        await res.arrayBuffer();
        status = res.status;
      } catch {}
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      if (status === 0 || status >= 500) failures.push({ url, status });
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 8 }, client));
  return { requests: urls.length, failures, byStatus };
}
