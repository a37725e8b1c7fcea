import { Hono } from 'hono';
import type { AppEnv } from '../../context.ts';
import { buildRoutes } from './build-routes.ts';
import { transactionRoutes } from './transaction-routes.ts';

/**
 * The Construction API (`/construction/derive`, `/preprocess`, `/metadata`, `/payloads`, `/parse`, `/combine`,
 * `/hash`, `/submit`, and `/preprocess_operations`), mounted at `/rosetta/construction`, online and offline alike
 * (offline, `/submit` and a payer's alias in `/metadata` are `Endpoint not supported in offline mode`): ADR 0052.
 */
export const constructionRoutes = new Hono<AppEnv>().route('/', buildRoutes).route('/', transactionRoutes);
