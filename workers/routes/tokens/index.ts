import { Hono } from 'hono';
import type { AppEnv } from '../../context.ts';
import { tokenBalanceRoutes } from './balances.ts';
import { tokenInfoRoutes } from './info.ts';
import { tokenListRoutes } from './list.ts';
import { nftRoutes } from './nfts.ts';

/** `/api/v1/tokens`: tokens, a token, its balances, its NFTs and their transactions. */
export const tokenRoutes = new Hono<AppEnv>()
  .route('/', tokenListRoutes)
  .route('/', tokenInfoRoutes)
  .route('/', tokenBalanceRoutes)
  .route('/', nftRoutes);
