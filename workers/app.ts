import { Hono } from 'hono';
import { createDatabase } from '../db/client.ts';
import type { Config } from './config/config.ts';
import type { AppEnv } from './context.ts';
import type { Env } from './env.ts';
import { handleError, notFound } from './error-handler.ts';
import { requestLog } from './middleware/request-log.ts';
import { healthRoutes } from './routes/health/index.ts';
import { transactionRoutes } from './routes/transactions/index.ts';

export interface AppDeps {
  /** The settings for one request (fixed per isolate in production; switchable in test mode). */
  config(env: Env): Config;
  /** The clock, in nanoseconds since the epoch. */
  now(): bigint;
}

export function createApp(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use(requestLog);
  app.use(async (c, next) => {
    c.set('config', deps.config(c.env));
    c.set('now', deps.now);
    const db = createDatabase({ url: c.env.DATABASE_URL, wsProxy: c.env.DB_WS_PROXY });
    c.set('db', db);
    try {
      await next();
    } finally {
      c.executionCtx.waitUntil(db.close());
    }
  });
  app.route('/health', healthRoutes);
  app.route('/api/v1/transactions', transactionRoutes);
  app.notFound(notFound);
  app.onError(handleError);
  return app;
}
