import type { Context } from 'hono';
import type { AppEnv } from '../context.ts';
import { pathAndQuery } from '../request-url.ts';
import { type FilterOf, type ParamSpec, parseQuery } from './query.ts';

/** The request's query parameters parsed against what a route accepts, under this request's settings. */
export function requestFilters<S extends ParamSpec>(
  c: Context<AppEnv>,
  spec: S,
  options: { legacy?: boolean } = {},
): FilterOf<S>[] {
  const maxRepeated = c.get('config').query.maxRepeatedQueryParameters;
  return parseQuery(pathAndQuery(c.req.url).query, spec, { maxRepeated, ...options });
}

/** For a route that accepts no query parameters: any given is answered as the reference's older validation does. */
export function acceptNoQuery(c: Context<AppEnv>): void {
  requestFilters(c, {}, { legacy: true });
}
