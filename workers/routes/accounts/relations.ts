import type { Context } from 'hono';
import { entityExists } from '../../../db/queries/accounts-lookup.ts';
import { accountRewards } from '../../../db/queries/accounts-rewards.ts';
import { tokenRelationships } from '../../../db/queries/accounts-tokens.ts';
import type { AppEnv } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { nextLink } from '../../format/pagination.ts';
import { entityId, int64, timestampString } from '../../format/values.ts';
import { encodedEntityIdBound, entityIdParam } from '../../params/entity-id.ts';
import { limitParam, orderParam, resolveLimit, resolveOrder } from '../../params/limit-order.ts';
import { requestFilters } from '../../params/request-query.ts';
import { parseTimestamp, timestampParam } from '../../params/timestamp.ts';
import { jsonResponse } from '../../respond.ts';
import { requireAccountId } from './account-id.ts';
import { startupDefaultLimit } from './startup-limit.ts';

/** Rewards are paid once a day: cached for a minute. */
const REWARDS_MAX_AGE = 60;
const FREEZE_STATUSES = ['NOT_APPLICABLE', 'FROZEN', 'UNFROZEN'];
const KYC_STATUSES = ['NOT_APPLICABLE', 'GRANTED', 'REVOKED'];

/**
 * The query parameters as `parse` reads them; when they are invalid, a missing account still answers 404 first,
 * as the reference checks the account before the parameters (valid requests check it in the round trip that reads
 * their page).
 */
async function parsedAfterExistence<T>(c: Context<AppEnv>, id: bigint, parse: () => T): Promise<T> {
  try {
    return parse();
  } catch (error) {
    if (!(await entityExists(c.get('db'), id))) throw ApiError.notFound();
    throw error;
  }
}

/** `GET /api/v1/accounts/{idOrAliasOrEvmAddress}/rewards`: staking rewards paid to the account. */
export async function getRewards(c: Context<AppEnv>): Promise<Response> {
  const config = c.get('config');
  const accountId = await requireAccountId(c);
  const { timestamp, limit, order } = await parsedAfterExistence(c, accountId, () => {
    const filters = requestFilters(c, {
      limit: limitParam(c.get('maxLimit')),
      order: orderParam,
      timestamp: timestampParam,
    });
    const timestamp = [];
    for (const filter of filters) {
      if (filter.key !== 'timestamp') continue;
      if (filter.operator === 'ne') {
        throw ApiError.badRequest('Not equals (ne) operator is not supported for timestamp');
      }
      timestamp.push({ operator: filter.operator, value: filter.value });
    }
    return { timestamp, limit: resolveLimit(filters, startupDefaultLimit(c)), order: resolveOrder(filters, 'desc') };
  });
  // The existence check and the page leave together: the route waits on one round trip (docs/adr/0023-topology.md).
  const [exists, rows] = await Promise.all([
    entityExists(c.get('db'), accountId),
    accountRewards(c.get('db'), { accountId, timestamp, order, limit }),
  ]);
  if (!exists) throw ApiError.notFound();
  const rewards = rows.map((row) => ({
    account_id: entityId(row.account_id),
    amount: int64(row.amount),
    timestamp: timestampString(row.consensus_timestamp),
  }));

  const last = rewards[rewards.length - 1];
  const next =
    rewards.length === limit && last?.timestamp
      ? nextLink({
          url: c.req.url,
          order,
          cursor: { timestamp: last.timestamp },
          maxRepeated: config.query.maxRepeatedQueryParameters,
          boundValue: (_field, value) => parseTimestamp(value),
          includeHost: config.response.includeHostInLink,
        })
      : null;
  return jsonResponse({ rewards, links: { next } }, { maxAge: REWARDS_MAX_AGE });
}

/** `GET /api/v1/accounts/{idOrAliasOrEvmAddress}/tokens`: the account's token associations and balances. */
export async function getTokenRelationships(c: Context<AppEnv>): Promise<Response> {
  const config = c.get('config');
  const accountId = await requireAccountId(c);
  const tokenIdOptions = { ...config.common, evmAddressType: 'num-alias' } as const;
  const filters = await parsedAfterExistence(c, accountId, () =>
    requestFilters(c, {
      limit: limitParam(c.get('maxLimit')),
      order: orderParam,
      'token.id': entityIdParam(tokenIdOptions),
    }),
  );
  const tokenIds = [];
  for (const filter of filters) {
    if (filter.key !== 'token.id') continue;
    if (filter.operator === 'ne') {
      throw ApiError.badRequest('Not equal (ne) comparison operator is not supported for token.id');
    }
    tokenIds.push({ operator: filter.operator, value: filter.value.kind === 'num' ? filter.value.encoded : null });
  }
  const limit = resolveLimit(filters, startupDefaultLimit(c));
  const order = resolveOrder(filters, 'asc');
  const { accountExists, rows } = await tokenRelationships(c.get('db'), { accountId, tokenIds, order, limit });
  if (!accountExists) throw ApiError.notFound();
  const tokens = rows.map((row) => ({
    automatic_association: row.automatic_association,
    balance: int64(row.balance),
    created_timestamp: timestampString(row.created_timestamp),
    decimals: int64(row.decimals),
    token_id: entityId(row.token_id),
    freeze_status: row.freeze_status === null ? null : (FREEZE_STATUSES[row.freeze_status] ?? null),
    kyc_status: row.kyc_status === null ? null : (KYC_STATUSES[row.kyc_status] ?? null),
  }));

  const last = tokens[tokens.length - 1];
  const next =
    tokens.length === limit && last?.token_id
      ? nextLink({
          url: c.req.url,
          order,
          cursor: { 'token.id': last.token_id },
          maxRepeated: config.query.maxRepeatedQueryParameters,
          boundValue: (_field, value) => {
            return encodedEntityIdBound(value, tokenIdOptions);
          },
          includeHost: config.response.includeHostInLink,
        })
      : null;
  return jsonResponse({ tokens, links: { next } });
}
