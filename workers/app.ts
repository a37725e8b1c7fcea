import { Hono } from 'hono';
import { createDatabase } from '../db/client.ts';
import type { Config } from './config/config.ts';
import type { AppEnv } from './context.ts';
import type { Env } from './env.ts';
import { handleError, notFound } from './error-handler.ts';
import { authenticate } from './middleware/auth.ts';
import { answerFromMemory, edgeCache, type RunApp } from './middleware/cache.ts';
import { answerPreflight } from './middleware/cors.ts';
import { limitRate, routeTakesToken } from './middleware/rate-limit.ts';
import { logRequest } from './middleware/request-line.ts';
import { requestLog } from './middleware/request-log.ts';
import { refuseUnroutedPath } from './reference-gateway.ts';
import { ROSETTA_PREFIX, rosettaRoutes } from './rosetta/index.ts';
import { accountRoutes } from './routes/accounts/index.ts';
import { balanceRoutes } from './routes/balances/index.ts';
import { blockRoutes } from './routes/blocks/index.ts';
import { callRoute, contractsPreflight } from './routes/contracts/call/index.ts';
import { contractRoutes } from './routes/contracts/index.ts';
import { opcodesRoute } from './routes/contracts/opcodes/index.ts';
import { docsRoutes } from './routes/docs/index.ts';
import { swaggerUiFile } from './routes/docs/swagger-ui-assets.ts';
import { healthRoutes } from './routes/health/index.ts';
import { networkRoutes } from './routes/network/index.ts';
import { scheduleRoutes } from './routes/schedules/index.ts';
import { streamRoutes } from './routes/stream/index.ts';
import { tokenRoutes } from './routes/tokens/index.ts';
import { topicRoutes } from './routes/topics/index.ts';
import { transactionRoutes } from './routes/transactions/index.ts';
import { afterUnreadBody } from './unread-body.ts';

export interface AppDeps {
  /** The settings for one request (fixed per isolate in production; switchable in test mode). */
  config(env: Env): Config;
  /** The clock, in nanoseconds since the epoch. */
  now(): bigint;
  /** Prefix of edge cache keys, naming the database; a new one drops all cached before (test mode, between cases). */
  cacheKeyPrefix(env: Env): string;
}

const STREAM_PREFIX = '/api/v1/stream';

export function createApp(deps: AppDeps) {
  // Not strict: like the reference (Express), `/api/v1/transactions/` is `/api/v1/transactions`; the paths its
  // Spring services answer 404 instead are refused before routing (reference-gateway.ts).
  const app = new Hono<AppEnv>({ strict: false });
  app.use(requestLog);
  app.use(async (c, next) => {
    c.set('config', deps.config(c.env));
    c.set('now', deps.now);
    c.set('db', createDatabase({ url: c.env.DATABASE_URL, localProxy: c.env.DB_LOCAL_PROXY }));
    await next();
  });
  app.options('/api/v1/contracts/*', contractsPreflight);
  app.options('/api/*', answerPreflight);
  app.get('/api/v1/docs/swagger-ui/:version/:file', swaggerUiFile);
  // A stale answer is read again through the whole app, in the background of the request that found it.
  const runApp: RunApp = (request, env, ctx) => app.fetch(request, env, ctx);
  const cached = edgeCache(deps.cacheKeyPrefix, runApp);
  // The credentials, the edge cache, then (on a miss, before the database) the rate limit, in one middleware: each
  // layer of hono's chain costs every request a few promises.
  app.use('/api/*', (c, next) => {
    authenticate(c);
    refuseUnroutedPath(c);
    // A stream subscription is never cached, and counts against the client's bucket as a request does.
    if (c.req.path.startsWith(`${STREAM_PREFIX}/`)) return limitRate(c).then(next);
    return cached(c, async () => {
      if (!routeTakesToken(c)) await limitRate(c);
      await next();
    });
  });
  app.route('/health', healthRoutes);
  app.route('/api/v1/accounts', accountRoutes);
  app.route('/api/v1/balances', balanceRoutes);
  app.route('/api/v1/blocks', blockRoutes);
  app.post('/api/v1/contracts/call', callRoute);
  app.get('/api/v1/contracts/results/:transactionIdOrHash/opcodes', opcodesRoute);
  app.route('/api/v1/contracts', contractRoutes);
  app.route('/api/v1', docsRoutes);
  app.route('/api/v1/network', networkRoutes);
  app.route('/api/v1/schedules', scheduleRoutes);
  app.route(STREAM_PREFIX, streamRoutes);
  app.route('/api/v1/tokens', tokenRoutes);
  app.route('/api/v1/topics', topicRoutes);
  app.route('/api/v1/transactions', transactionRoutes);
  app.route(ROSETTA_PREFIX, rosettaRoutes(deps.cacheKeyPrefix, runApp));
  app.notFound(notFound);
  app.onError(handleError);
  return {
    /** A response the memory tier holds is served before routing, with its request line like any other. */
    fetch(request: Request, env: Env, ctx: ExecutionContext): Response | Promise<Response> {
      const config = deps.config(env);
      const remembered = answerFromMemory(request, config, deps.cacheKeyPrefix(env), (again) =>
        app.fetch(again, env, ctx),
      );
      if (!remembered) return afterUnreadBody(request, app.fetch(request, env, ctx));
      if (remembered.pending) ctx.waitUntil(remembered.pending);
      const { response, stale } = remembered;
      logRequest(
        { method: 'GET', url: request.url, status: response.status, ms: 0, cache: stale ? 'stale' : 'hit' },
        { batchMs: config.edge.log.batch, waitUntil: (promise) => ctx.waitUntil(promise) },
      );
      return response;
    },
  };
}
