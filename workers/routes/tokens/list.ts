import { Hono } from 'hono';
import type { Comparison } from '../../../db/queries/comparison.ts';
import { tokens } from '../../../db/queries/tokens.ts';
import type { AppEnv } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { nextLink } from '../../format/pagination.ts';
import { entityIdParam, requireEntityId } from '../../params/entity-id.ts';
import { limitParam, orderParam, resolveLimit, resolveOrder } from '../../params/limit-order.ts';
import { publicKeyParam } from '../../params/public-key.ts';
import { parseQuery } from '../../params/query.ts';
import { parseQueryString, type RawValue } from '../../params/query-string.ts';
import { pathAndQuery } from '../../request-url.ts';
import { jsonResponse } from '../../respond.ts';
import { formatTokenSummary } from './format.ts';
import { entityIdBound, nameParam, tokenTypeParam } from './params.ts';

const LIST_MAX_AGE = 10;

/** Whether the reference's `req.query[name]` is truthy: given once with a non-empty value, or repeated. */
const isGiven = (values: readonly RawValue[] | undefined): boolean =>
  values !== undefined && (values.length > 1 || (values.length === 1 && values[0] !== ''));

/** `GET /api/v1/tokens`: tokens by id, filtered by holder, admin public key, name, id and type. */
export const tokenListRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const config = c.get('config');
  const search = pathAndQuery(c.req.url).query;
  const maxRepeated = config.query.maxRepeatedQueryParameters;
  const raw = new Map(parseQueryString(search, maxRepeated).map(({ key, values }) => [key, values]));
  const hasName = isGiven(raw.get('name'));
  if (hasName && isGiven(raw.get('token.id'))) {
    throw ApiError.badRequest('token.id and name can not be used together. Use a more specific name instead.');
  }
  if (hasName && isGiven(raw.get('account.id'))) {
    throw ApiError.badRequest('account.id and name cannot be used together');
  }

  const filters = parseQuery(
    search,
    {
      'account.id': entityIdParam(config.common),
      limit: limitParam(c.get('maxLimit')),
      name: nameParam,
      order: orderParam,
      publickey: publicKeyParam,
      'token.id': entityIdParam({ ...config.common, evmAddressType: 'num-alias' }),
      type: tokenTypeParam,
    },
    { maxRepeated },
  );

  let accountId: bigint | null | undefined;
  const accountValues = raw.get('account.id');
  if (isGiven(accountValues) && accountValues) {
    // The reference parses the raw value, which is a list when repeated.
    if (accountValues.length > 1) throw ApiError.badRequest(`Entity ID "${accountValues.join(',')}" is not a string`);
    const parsed = requireEntityId(String(accountValues[0]), { ...config.common, paramName: 'account.id' });
    accountId = parsed.kind === 'num' ? parsed.encoded : null;
  }

  const names: string[] = [];
  const publicKeys: Comparison<string>[] = [];
  const tokenIds: bigint[] = [];
  const tokenIdRanges: Comparison<bigint | null>[] = [];
  const types: Comparison<string>[] = [];
  for (const filter of filters) {
    if (filter.key === 'name') names.push(filter.value);
    else if (filter.key === 'publickey') publicKeys.push(filter);
    else if (filter.key === 'type' && filter.value !== 'ALL') types.push(filter);
    else if (filter.key === 'token.id') {
      const value = filter.value.kind === 'num' ? filter.value.encoded : null;
      if (filter.operator === 'eq' && value !== null) tokenIds.push(value);
      else tokenIdRanges.push({ operator: filter.operator, value });
    }
  }
  const limit = resolveLimit(filters, config.response.limit.default);
  const order = resolveOrder(filters, 'asc');

  const rows = await tokens(c.get('db'), {
    accountId,
    publicKeys,
    names,
    tokenIds,
    tokenIdRanges,
    types,
    order,
    limit,
  });
  const items = rows.map(formatTokenSummary);
  const last = items[items.length - 1];
  // Name searches are not paged: the reference gives them no next link.
  const next =
    !hasName && items.length === limit && last?.token_id
      ? nextLink({
          url: c.req.url,
          order,
          cursor: { 'token.id': last.token_id },
          maxRepeated,
          boundValue: entityIdBound(config),
          includeHost: config.response.includeHostInLink,
        })
      : null;
  return jsonResponse({ tokens: items, links: { next } }, { maxAge: LIST_MAX_AGE });
});
