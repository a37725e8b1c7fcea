import { Hono } from 'hono';
import type { AppEnv } from '../../context.ts';
import { feeEstimateRoutes } from './fees-estimate/index.ts';
import { fileRoutes } from './files.ts';
import { nodeRoutes } from './nodes.ts';
import { stakeRoutes } from './stake.ts';
import { supplyRoutes } from './supply.ts';

/**
 * `/api/v1/network` routes, which the reference serves from its Java process: they read parameters, report
 * errors and build `next` links as that process does (`workers/params/java`), not as the JavaScript one.
 * Paths it does not serve fall through to the 404 handler.
 */
export const networkRoutes = new Hono<AppEnv>()
  .route('/', nodeRoutes)
  .route('/', fileRoutes)
  .route('/', feeEstimateRoutes)
  .route('/', supplyRoutes)
  .route('/', stakeRoutes);
