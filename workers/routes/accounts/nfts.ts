import type { Context } from 'hono';
import { accountNfts } from '../../../db/queries/accounts-nfts.ts';
import type { Comparison } from '../../../db/queries/comparison.ts';
import type { AppEnv } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { nextLink } from '../../format/pagination.ts';
import { base64, entityId, int64, timestampString } from '../../format/values.ts';
import { encodedEntityIdBound, entityIdParam, type ParsedEntityId } from '../../params/entity-id.ts';
import type { Filter } from '../../params/filters.ts';
import { limitParam, orderParam, resolveLimit, resolveOrder } from '../../params/limit-order.ts';
import { requestFilters } from '../../params/request-query.ts';
import { parsePositiveLong, positiveLongParam } from '../../params/scalars.ts';
import { jsonResponse } from '../../respond.ts';
import { requireAccountId } from './account-id.ts';
import { addToBound, type Bounds, boundsCursor, columnParts, newBound, validateBounds } from './bounds.ts';
import { startupDefaultLimit } from './startup-limit.ts';

const encoded = (id: ParsedEntityId): bigint | null => (id.kind === 'num' ? id.encoded : null);

const COLUMNS: Record<string, 'token_id' | 'serial_number'> = { 'token.id': 'token_id', serialnumber: 'serial_number' };

/** `GET /api/v1/accounts/{idOrAliasOrEvmAddress}/nfts`: the NFTs the account owns, by token and serial number. */
export async function getAccountNfts(c: Context<AppEnv>): Promise<Response> {
  const config = c.get('config');
  const db = c.get('db');
  const accountId = await requireAccountId(c);
  const filters = requestFilters(c, {
    limit: limitParam(c.get('maxLimit')),
    order: orderParam,
    serialnumber: positiveLongParam,
    'spender.id': entityIdParam(config.common),
    'token.id': entityIdParam({ ...config.common, evmAddressType: 'num-alias' }),
  });

  const bounds: Bounds<bigint | null, bigint> = { primary: newBound('token.id'), secondary: newBound('serialnumber') };
  const spenderIn: Comparison<bigint | null>[] = [];
  const spenderRanges: Filter<string, bigint | null>[] = [];
  for (const filter of filters) {
    if (filter.key === 'token.id') addToBound(bounds.primary, { ...filter, value: encoded(filter.value) });
    else if (filter.key === 'serialnumber') addToBound(bounds.secondary, filter);
    else if (filter.key === 'spender.id') {
      const spender = { ...filter, value: encoded(filter.value) };
      (filter.operator === 'eq' ? spenderIn : spenderRanges).push(spender);
    }
  }
  validateBounds(bounds);
  const operators = spenderRanges.map((f) => f.operator);
  if (
    operators.filter((o) => o === 'lt' || o === 'lte').length > 1 ||
    operators.filter((o) => o === 'gt' || o === 'gte').length > 1
  ) {
    throw ApiError.badRequest('Multiple range params not allowed for spender.id');
  }
  if (operators.includes('ne')) throw ApiError.badRequest('Not equals (ne) comparison operator is not supported');

  const limit = resolveLimit(filters, startupDefaultLimit(c));
  const order = resolveOrder(filters, 'desc');
  const rows = await accountNfts(db, {
    accountId,
    parts: columnParts(bounds, COLUMNS),
    spender: [...spenderRanges, ...spenderIn],
    order,
    limit,
  });
  const nfts = rows.map((row) => ({
    account_id: entityId(row.account_id),
    created_timestamp: timestampString(row.created_timestamp),
    delegating_spender: entityId(row.delegating_spender),
    deleted: row.deleted,
    metadata: base64(row.metadata),
    modified_timestamp: timestampString(row.modified_timestamp),
    serial_number: int64(row.serial_number),
    spender: entityId(row.spender),
    token_id: entityId(row.token_id),
  }));

  const last = nfts[nfts.length - 1];
  const cursor = boundsCursor(bounds, {
    count: nfts.length,
    limit,
    last: last && { primary: last.token_id ?? '', secondary: last.serial_number ?? 0n },
  });
  const next =
    cursor &&
    nextLink({
      url: c.req.url,
      order,
      cursor,
      maxRepeated: config.query.maxRepeatedQueryParameters,
      boundValue: (field, value) => {
        if (field === 'serialnumber') return parsePositiveLong(value, true);
        return encodedEntityIdBound(value, { ...config.common, evmAddressType: 'num-alias' });
      },
      includeHost: config.response.includeHostInLink,
    });
  return jsonResponse({ nfts, links: { next } });
}
