import { Hono } from 'hono';
import type { AppEnv } from '../../context.ts';

/** `/api/v1/topics` routes (issue #4). Paths it does not serve fall through to the 404 handler. */
export const topicRoutes = new Hono<AppEnv>();
