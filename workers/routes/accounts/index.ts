import { Hono } from 'hono';
import type { AppEnv } from '../../context.ts';
import { getAccount } from './account.ts';
import { getAirdrops } from './airdrops.ts';
import { getCryptoAllowances, getTokenAllowances } from './allowances.ts';
import { getAccounts } from './list.ts';
import { getNftAllowances } from './nft-allowances.ts';
import { getAccountNfts } from './nfts.ts';
import { getRewards, getTokenRelationships } from './relations.ts';

/**
 * `/api/v1/accounts` routes. Paths it does not serve fall through to the 404 handler, among them the hook routes
 * the reference removed (`/accounts/{id}/hooks`, `/accounts/{id}/hooks/{hookId}/storage`).
 */
export const accountRoutes = new Hono<AppEnv>()
  .get('/', getAccounts)
  .get('/:idOrAliasOrEvmAddress', getAccount)
  .get('/:idOrAliasOrEvmAddress/nfts', getAccountNfts)
  .get('/:idOrAliasOrEvmAddress/rewards', getRewards)
  .get('/:idOrAliasOrEvmAddress/tokens', getTokenRelationships)
  .get('/:idOrAliasOrEvmAddress/allowances/crypto', getCryptoAllowances)
  .get('/:idOrAliasOrEvmAddress/allowances/tokens', getTokenAllowances)
  // served by the reference's Java process, with its parameter grammar and error bodies
  .get('/:idOrAliasOrEvmAddress/allowances/nfts', getNftAllowances)
  .get('/:idOrAliasOrEvmAddress/airdrops/outstanding', getAirdrops('outstanding'))
  .get('/:idOrAliasOrEvmAddress/airdrops/pending', getAirdrops('pending'));
