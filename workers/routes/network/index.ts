import { Hono } from 'hono';
import type { AppEnv } from '../../context.ts';

/** `/api/v1/network` routes (issue #6). Paths it does not serve fall through to the 404 handler. */
export const networkRoutes = new Hono<AppEnv>();
