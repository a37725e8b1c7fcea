import { Hono } from 'hono';
import { latestNetworkStake } from '../../../db/queries/network-stake.ts';
import type { AppEnv } from '../../context.ts';
import { javaNotFound } from '../../params/java/errors.ts';
import { jsonResponse } from '../../respond.ts';
import { NETWORK_MAX_AGE, setNetworkCacheControl } from './common.ts';
import { formatNetworkStake } from './format-stake.ts';

/** `/network/stake`: the staking figures of the latest staking period. It takes no parameters. */
export const stakeRoutes = new Hono<AppEnv>().get('/stake', async (c) => {
  setNetworkCacheControl(c);
  const row = await latestNetworkStake(c.get('db'));
  if (!row) throw javaNotFound('No network stake data found');
  return jsonResponse(formatNetworkStake(row), { maxAge: NETWORK_MAX_AGE });
});
