import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv } from '../../context.ts';

/**
 * Liveness and readiness as the reference's health checks answer them: live while the process runs; ready once
 * the database answers and holds an address book (the importer has started the network's history).
 */
export const healthRoutes = new Hono<AppEnv>()
  .get('/liveness', (c) => c.json({ status: 'ok' }))
  .get('/readiness', async (c) => {
    try {
      const rows = await c.get('db').rows(sql`select true from address_book limit 1`);
      if (rows.length === 1) return c.json({ status: 'ok' });
      return c.json({ status: 'error', error: { message: 'Application readiness check failed' } }, 503);
    } catch {
      return c.json({ status: 'error', error: { message: 'Database is unreachable' } }, 503);
    }
  });
