import { Hono, type MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from '../../context.ts';
import {
  accountBalanceRequestSchema,
  allAccountBalancesRequestSchema,
  blockRequestSchema,
  blockTransactionRequestSchema,
  metadataRequestSchema,
  networkRequestSchema,
} from '../request/schemas.ts';
import { notFoundText } from '../respond.ts';
import { rosettaSettings } from '../settings.ts';
import { accountRoutes } from './account.ts';
import { blockRoutes } from './block.ts';
import { mempoolRoutes } from './mempool.ts';
import { networkRoutes } from './network.ts';

/**
 * The endpoints that need the mirror's data: in offline mode the reference's server has no route for them, so they
 * answer its router's 404.
 */
const offlineNotFound: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!rosettaSettings(c.get('config')).online) return notFoundText();
  return next();
};

// Scoped to their paths: a middleware of a sub-app mounted at `/` would reach every Rosetta path, the Construction
// API's too, which the reference serves offline.
const onlineOnly = new Hono<AppEnv>()
  .use('/block', offlineNotFound)
  .use('/block/*', offlineNotFound)
  .use('/account/*', offlineNotFound)
  .use('/mempool', offlineNotFound)
  .use('/mempool/*', offlineNotFound)
  .route('/', blockRoutes)
  .route('/', accountRoutes)
  .route('/', mempoolRoutes);

/** The Data API (rosetta/app/services: network, block, account and mempool services). */
export const dataRoutes = new Hono<AppEnv>().route('/', networkRoutes).route('/', onlineOnly);

/** The Data API's reads the edge cache may answer, by path, with the request each decodes into (its key). */
export const CACHEABLE_DATA_REQUESTS: ReadonlyMap<string, z.ZodObject> = new Map<string, z.ZodObject>([
  ['/network/list', metadataRequestSchema],
  ['/network/options', networkRequestSchema],
  ['/network/status', networkRequestSchema],
  ['/block', blockRequestSchema],
  ['/block/transaction', blockTransactionRequestSchema],
  ['/account/balance', accountBalanceRequestSchema],
  ['/account/all-balances', allAccountBalancesRequestSchema],
]);
