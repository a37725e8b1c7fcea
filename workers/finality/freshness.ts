import type { Context } from 'hono';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';

/**
 * The Cache-Control of an answer. A final one (nothing the ingest can still write would change it: the route's rule
 * in docs/adr/0045-final-answers-at-the-edge.md) is kept `edge.cache.finalMaxAge` seconds, `immutable`, at the edge
 * and by browsers; any other keeps the reference's max-age for its route (`maxAge`, else the reference's default of
 * one second).
 */
export function cacheControlFor(c: Context<AppEnv>, final: boolean, maxAge?: number): string {
  if (final) return `public, max-age=${c.get('config').edge.cache.finalMaxAge}, immutable`;
  return `public, max-age=${maxAge ?? 1}`;
}

/**
 * The reference's 404 (`Not found`), final: the id names an entity that exists and is of another type, and an
 * entity's type never changes, so no later write can make it one the route answers. A 404 for an id that may
 * still appear is an ordinary `ApiError.notFound()`, which the edge does not keep.
 */
export function finalNotFound(c: Context<AppEnv>): ApiError {
  return new ApiError(404, 'Not found', { headers: { 'cache-control': cacheControlFor(c, true) } });
}
