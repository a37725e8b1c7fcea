import type { Context } from 'hono';
import { type AllowanceRow, cryptoAllowances, tokenAllowances } from '../../../db/queries/allowances.ts';
import type { AppEnv } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { nextLink } from '../../format/pagination.ts';
import { entityId, int64, timestampString } from '../../format/values.ts';
import { encodedEntityIdBound, entityIdParam, type ParsedEntityId } from '../../params/entity-id.ts';
import { limitParam, orderParam, resolveLimit, resolveOrder } from '../../params/limit-order.ts';
import { requestFilters } from '../../params/request-query.ts';
import { jsonResponse } from '../../respond.ts';
import { requireAccountId } from './account-id.ts';
import { addToBound, type Bounds, boundsCursor, columnParts, newBound, validateBounds } from './bounds.ts';
import { startupDefaultLimit } from './startup-limit.ts';

const encoded = (id: ParsedEntityId): bigint | null => (id.kind === 'num' ? id.encoded : null);

/** An allowance as the API shows it (`token_id` only for token allowances). */
function formatAllowance(row: AllowanceRow) {
  return {
    amount: int64(row.amount),
    amount_granted: int64(row.amount_granted),
    owner: entityId(row.owner),
    spender: entityId(row.spender),
    timestamp: { from: timestampString(row.timestamp_from), to: timestampString(row.timestamp_to) },
    ...(row.token_id === undefined ? {} : { token_id: entityId(row.token_id) }),
  };
}

/** Parses an entity id of a `next` link bound (for its empty-range check). */
const idBoundValue =
  (common: { shard: number; realm: number }) =>
  (_field: string, value: string): bigint | undefined => {
    return encodedEntityIdBound(value, { ...common, evmAddressType: 'num-alias' });
  };

/** `GET /api/v1/accounts/{idOrAliasOrEvmAddress}/allowances/crypto`: the account's hbar allowances by spender. */
export async function getCryptoAllowances(c: Context<AppEnv>): Promise<Response> {
  const config = c.get('config');
  const db = c.get('db');
  const owner = await requireAccountId(c);
  const filters = requestFilters(c, {
    limit: limitParam(c.get('maxLimit')),
    order: orderParam,
    'spender.id': entityIdParam(config.common),
  });
  const spender = [];
  for (const filter of filters) {
    if (filter.key !== 'spender.id') continue;
    if (filter.operator === 'ne') {
      throw ApiError.badRequest('Not equal (ne) comparison operator is not supported for spender.id');
    }
    spender.push({ operator: filter.operator, value: encoded(filter.value) });
  }
  const limit = resolveLimit(filters, startupDefaultLimit(c));
  const order = resolveOrder(filters, 'desc');
  const allowances = (await cryptoAllowances(db, { owner, spender, order, limit })).map(formatAllowance);

  const last = allowances[allowances.length - 1];
  const next =
    allowances.length === limit && last?.spender
      ? nextLink({
          url: c.req.url,
          order,
          cursor: { 'spender.id': last.spender },
          maxRepeated: config.query.maxRepeatedQueryParameters,
          boundValue: idBoundValue(config.common),
          includeHost: config.response.includeHostInLink,
        })
      : null;
  return jsonResponse({ allowances, links: { next } });
}

const TOKEN_ALLOWANCE_COLUMNS: Record<string, 'spender' | 'token_id'> = {
  'spender.id': 'spender',
  'token.id': 'token_id',
};

/**
 * `GET /api/v1/accounts/{idOrAliasOrEvmAddress}/allowances/tokens`: the account's fungible token allowances by
 * spender then token.
 */
export async function getTokenAllowances(c: Context<AppEnv>): Promise<Response> {
  const config = c.get('config');
  const db = c.get('db');
  const owner = await requireAccountId(c);
  const filters = requestFilters(c, {
    limit: limitParam(c.get('maxLimit')),
    order: orderParam,
    'spender.id': entityIdParam(config.common),
    'token.id': entityIdParam({ ...config.common, evmAddressType: 'num-alias' }),
  });
  const bounds: Bounds<bigint | null, bigint | null> = {
    primary: newBound('spender.id'),
    secondary: newBound('token.id'),
  };
  for (const filter of filters) {
    if (filter.key === 'spender.id') addToBound(bounds.primary, { ...filter, value: encoded(filter.value) });
    else if (filter.key === 'token.id') addToBound(bounds.secondary, { ...filter, value: encoded(filter.value) });
  }
  validateBounds(bounds);

  const limit = resolveLimit(filters, startupDefaultLimit(c));
  const order = resolveOrder(filters, 'asc');
  const rows = await tokenAllowances(db, {
    owner,
    parts: columnParts(bounds, TOKEN_ALLOWANCE_COLUMNS),
    order,
    limit,
  });
  const allowances = rows.map(formatAllowance);

  const last = allowances[allowances.length - 1];
  const cursor = boundsCursor(bounds, {
    count: allowances.length,
    limit,
    last: last && { primary: last.spender ?? '', secondary: last.token_id ?? '' },
  });
  const next =
    cursor &&
    nextLink({
      url: c.req.url,
      order,
      cursor,
      maxRepeated: config.query.maxRepeatedQueryParameters,
      boundValue: idBoundValue(config.common),
      includeHost: config.response.includeHostInLink,
    });
  return jsonResponse({ allowances, links: { next } });
}
