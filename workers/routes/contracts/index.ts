import { Hono } from 'hono';
import type { AppEnv } from '../../context.ts';

/** `/api/v1/contracts` routes (issue #5). Paths it does not serve fall through to the 404 handler. */
export const contractRoutes = new Hono<AppEnv>();
