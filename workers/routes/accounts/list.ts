import type { Context } from 'hono';
import { listAccounts } from '../../../db/queries/accounts-list.ts';
import type { AppEnv } from '../../context.ts';
import { entityIdParam } from '../../params/entity-id.ts';
import type { ParamParser } from '../../params/filters.ts';
import { legacyBoolean, legacyOrder } from '../../params/legacy-order.ts';
import { limitParam, orderParam, resolveLimit } from '../../params/limit-order.ts';
import { publicKeyParam } from '../../params/public-key.ts';
import { parseQuery } from '../../params/query.ts';
import { booleanParam, parsePositiveLong } from '../../params/scalars.ts';
import { pathAndQuery } from '../../request-url.ts';
import { jsonResponse } from '../../respond.ts';
import { formatAccount } from './format.ts';
import { accountIdPageLink } from './page-link.ts';

/** The list changes with every new account and transfer: cached for ten seconds. */
const LIST_MAX_AGE = 10;

/** `account.balance`: tinybars, 0 to 2^63-1, under any operator. */
export const balanceParam: ParamParser<bigint> = (value) => parsePositiveLong(value, true);

/** `GET /api/v1/accounts`: accounts and contracts by id, with or without their balances. */
export async function getAccounts(c: Context<AppEnv>): Promise<Response> {
  const config = c.get('config');
  const search = pathAndQuery(c.req.url).query;
  const maxRepeated = config.query.maxRepeatedQueryParameters;
  const filters = parseQuery(
    search,
    {
      'account.balance': balanceParam,
      'account.id': entityIdParam(config.common),
      'account.publickey': publicKeyParam,
      balance: booleanParam,
      limit: limitParam(c.get('maxLimit')),
      order: orderParam,
    },
    { maxRepeated, legacy: true },
  );
  const limit = resolveLimit(filters, config.response.limit.default);
  const order = legacyOrder(search, maxRepeated, 'asc');
  const rows = await listAccounts(c.get('db'), {
    ids: filters.flatMap((f) =>
      f.key === 'account.id' ? [{ operator: f.operator, value: f.value.kind === 'num' ? f.value.encoded : null }] : [],
    ),
    balances: filters.flatMap((f) => (f.key === 'account.balance' ? [{ operator: f.operator, value: f.value }] : [])),
    // the reference applies every public key filter (with `and`): two different keys match nothing
    publicKeys: filters.flatMap((f) =>
      f.key === 'account.publickey' ? [{ operator: f.operator, value: f.value }] : [],
    ),
    withBalance: legacyBoolean(search, maxRepeated, 'balance', true),
    order,
    limit,
    tokenLimit: config.response.limit.tokenBalance.multipleAccounts,
  });
  const accounts = rows.map((row) =>
    formatAccount(row, { delegationAddress: config.response.enableDelegationAddress }),
  );

  const next = accountIdPageLink(c, { items: accounts, limit, order, maxRepeated });
  return jsonResponse({ accounts, links: { next } }, { maxAge: LIST_MAX_AGE });
}
