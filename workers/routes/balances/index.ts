import { Hono } from 'hono';
import type { AppEnv } from '../../context.ts';

/** `/api/v1/balances` routes (issue #10). Paths it does not serve fall through to the 404 handler. */
export const balanceRoutes = new Hono<AppEnv>();
