/**
 * How long the edge keeps an answer, read from the Cache-Control its route built (docs/adr/0045): final answers
 * (`immutable`) for their whole max-age; answers that can still change for their max-age, then, within the
 * stale-while-revalidate bound, as a stale copy served while a fresh one is read; 404s only when final (a 404 for
 * something that may still appear is never kept); other statuses never.
 */
export interface Lifetime {
  /** Seconds the answer is fresh. */
  readonly maxAge: number;
  /** Seconds past `maxAge` it may still be served, stale, while it is read again. */
  readonly staleSeconds: number;
}

const MAX_AGE = /max-age=(\d+)/;
const IMMUTABLE = /(?:^|,)\s*immutable\s*(?:,|$)/;
/** What the Cache API copy adds so that the shared cache keeps it through the stale bound (stripped on the way out). */
const EDGE_LIFETIME = /, s-maxage=\d+$/;

export function maxAgeOf(cacheControl: string | null): number {
  const match = cacheControl ? MAX_AGE.exec(cacheControl) : null;
  return match?.[1] ? Number(match[1]) : 0;
}

export const isFinal = (cacheControl: string | null): boolean => cacheControl !== null && IMMUTABLE.test(cacheControl);

/** The lifetime of an answer at the edge, or undefined when it is not kept. */
export function lifetimeOf(
  status: number,
  cacheControl: string | null,
  staleWhileRevalidate: number,
): Lifetime | undefined {
  const final = isFinal(cacheControl);
  if (status !== 200 && !(status === 404 && final)) return undefined;
  const maxAge = maxAgeOf(cacheControl);
  if (maxAge <= 0) return undefined;
  return { maxAge, staleSeconds: final ? 0 : Math.max(0, staleWhileRevalidate) };
}

/** The Cache-Control of the Cache API's copy: a shared-cache lifetime that covers the stale bound too. */
export function storedCacheControl(cacheControl: string, lifetime: Lifetime): string {
  return lifetime.staleSeconds > 0
    ? `${cacheControl}, s-maxage=${lifetime.maxAge + lifetime.staleSeconds}`
    : cacheControl;
}

/** The route's own Cache-Control, from the Cache API's copy. */
export const servedCacheControl = (stored: string): string => stored.replace(EDGE_LIFETIME, '');
