/**
 * The Rosetta (Mesh) API under `/rosetta`, as the reference's `rosetta` module serves it at its root
 * (docs/adr/0048-rosetta-api-at-the-edge.md): the Data API (`data/`), the Construction API (`construction/`), every
 * endpoint a POST with a JSON body, every error HTTP 500 with a Mesh `Error`. The edge layer is the REST API's: the
 * edge cache (keyed by the request's body, `edge-cache.ts`) in front of the per-client rate limit.
 */
import { Hono } from 'hono';
import { DatabaseError } from '../../db/database-error.ts';
import type { AppEnv } from '../context.ts';
import { describeError } from '../describe-error.ts';
import type { Env } from '../env.ts';
import { ApiError } from '../errors.ts';
import { edgeCache, type RunApp } from '../middleware/cache.ts';
import { limitRate } from '../middleware/rate-limit.ts';
import { constructionRoutes } from './construction/index.ts';
import { CACHEABLE_DATA_REQUESTS, dataRoutes } from './data/index.ts';
import { rosettaCacheKeys } from './edge-cache.ts';
import { RATE_LIMITED, RosettaError } from './errors.ts';
import { MESH_CORS_HEADERS, meshErrorResponse, notFoundText } from './respond.ts';

/** Where the Worker serves the Rosetta API: a Mesh client's base URL is `<origin>/rosetta`. */
export const ROSETTA_PREFIX = '/rosetta';

/** The error a thrown value answers with: Rosetta's own, the rate limit's, the database's, or an internal one. */
function toRosettaError(error: unknown): RosettaError {
  if (error instanceof RosettaError) return error;
  if (error instanceof ApiError && error.status === 429) {
    return new RosettaError(RATE_LIMITED, { status: 429, headers: { ...error.headers } });
  }
  if (error instanceof DatabaseError) return RosettaError.of('DatabaseError');
  return RosettaError.of('InternalServerError');
}

/**
 * The sub-app mounted at `ROSETTA_PREFIX`; `cacheKeyPrefix` is the app's (the database the answers come from), and
 * `runApp` the whole app, as the edge cache takes it.
 */
export function rosettaRoutes(cacheKeyPrefix: (env: Env) => string, runApp: RunApp) {
  const cached = edgeCache(cacheKeyPrefix, runApp, rosettaCacheKeys(ROSETTA_PREFIX, CACHEABLE_DATA_REQUESTS));
  const routes = new Hono<AppEnv>().route('/', dataRoutes).route('/construction', constructionRoutes);
  const app = new Hono<AppEnv>();
  // The Mesh SDK's CORS middleware answers every preflight itself.
  app.options('*', () => new Response(null, { status: 200, headers: MESH_CORS_HEADERS }));
  // The edge cache, then (on a miss, before the database) the rate limit, as for /api/v1.
  app.use('*', (c, next) =>
    cached(c, async () => {
      await limitRate(c);
      await next();
    }),
  );
  app.route('/', routes);
  // gorilla/mux: a known path asked with another method is 405 with no body; any other path its 404 text.
  app.all('*', (c) => {
    const path = c.req.path.slice(ROSETTA_PREFIX.length);
    const known = routes.routes.some((route) => route.path === path && route.method === 'POST');
    return known ? new Response(null, { status: 405, headers: MESH_CORS_HEADERS }) : notFoundText();
  });
  app.onError((error, c) => {
    const rosettaError = toRosettaError(error);
    if (rosettaError.body.code === 500 || rosettaError.body.code === 125) {
      console.error(
        JSON.stringify({ msg: 'request failed', method: c.req.method, url: c.req.url, error: describeError(error) }),
      );
    }
    return meshErrorResponse(rosettaError);
  });
  return app;
}
