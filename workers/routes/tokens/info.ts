import { Hono } from 'hono';
import { settledEntity } from '../../../db/queries/entity-type.ts';
import { tokenInfo } from '../../../db/queries/tokens.ts';
import type { AppEnv } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { finalNotFound } from '../../finality/freshness.ts';
import type { ParamParser } from '../../params/filters.ts';
import { requestFilters } from '../../params/request-query.ts';
import { parseTimestamp } from '../../params/timestamp.ts';
import { jsonResponse } from '../../respond.ts';
import { formatTokenInfo } from './format.ts';
import { tokenIdPathParam } from './params.ts';

const TOKEN_MAX_AGE = 5;

/** `timestamp` of a token's state: `eq`, `lt` or `lte` only. */
const stateTimestampParam: ParamParser<bigint> = (value, operator) =>
  operator === 'eq' || operator === 'lt' || operator === 'lte' ? parseTimestamp(value) : undefined;

/** `GET /api/v1/tokens/{tokenId}`: the token now, or as of `timestamp` (the last one given; `eq` reads as `lte`). */
export const tokenInfoRoutes = new Hono<AppEnv>().get('/:tokenId', async (c) => {
  const config = c.get('config');
  const tokenId = tokenIdPathParam(c.req.param('tokenId'), config);
  const filters = requestFilters(c, { timestamp: stateTimestampParam });
  const last = filters[filters.length - 1];
  const at = last && { operator: last.operator === 'eq' ? ('lte' as const) : last.operator, value: last.value };
  const row = await tokenInfo(c.get('db'), tokenId, at);
  // A token without a custom fee row (as of the time asked) is not found, as in the reference. An entity of
  // another type never becomes a token (a token always gets a new id): that 404 is final.
  if (!row?.has_custom_fee) {
    const entity = row ? undefined : await settledEntity(c.get('db'), tokenId);
    throw entity?.typeKnown && entity.type !== 'TOKEN' ? finalNotFound(c) : ApiError.notFound();
  }
  return jsonResponse(formatTokenInfo(row), { maxAge: TOKEN_MAX_AGE });
});
