import { Hono } from 'hono';
import type { AppEnv } from '../../context.ts';

/** `/api/v1/blocks` routes (issue #3). Paths it does not serve fall through to the 404 handler. */
export const blockRoutes = new Hono<AppEnv>();
