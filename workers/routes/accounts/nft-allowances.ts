import type { Context } from 'hono';
import { boundConditions, RangeBound, RangeBoundError } from '../../../db/queries/accounts-range-bounds.ts';
import { nftAllowances } from '../../../db/queries/allowances.ts';
import type { AppEnv } from '../../context.ts';
import { javaNextLink } from '../../format/java-next-link.ts';
import { entityId, timestampString } from '../../format/values.ts';
import { javaBadRequest } from '../../params/java/errors.ts';
import { entityIdRangeParam } from '../../params/java/range.ts';
import { servletParams } from '../../params/java/servlet-query.ts';
import { pathAndQuery } from '../../request-url.ts';
import { jsonResponse } from '../../respond.ts';
import { lookupJavaAccountId, parseJavaAccountId } from './java-account-id.ts';
import {
  booleanRequestParam,
  checkConstraints,
  limitRequestParam,
  orderRequestParam,
  rangeRequestParam,
} from './java-params.ts';

/** The checks the reference's NFT allowance service makes on its two bounds, with its messages. */
function checkAllowanceBounds(account: RangeBound, token: RangeBound): void {
  if (account.isEmpty() && !token.isEmpty()) {
    throw new RangeBoundError('token.id parameter must have account.id present');
  }
  for (const bound of [account, token]) {
    bound.verifyUnsupported('ne');
    bound.verifySingleOccurrence();
    bound.verifyEqualOrRange();
  }
  if (!account.hasLowerAndUpper() && token.adjustedLowerValue() > token.adjustedUpperValue()) {
    throw new RangeBoundError('Invalid range provided for token.id');
  }
  if (token.count('lt', 'lte') > 0 && account.count('eq', 'lte') === 0) {
    throw new RangeBoundError('Requires the presence of an lte or eq account.id parameter');
  }
  if (token.count('gt', 'gte') > 0 && account.count('eq', 'gte') === 0) {
    throw new RangeBoundError('Requires the presence of an gte or eq account.id parameter');
  }
}

/**
 * `GET /api/v1/accounts/{id}/allowances/nfts`: the approved-for-all NFT allowances the account granted
 * (`owner=true`, by spender) or received (`owner=false`, by owner), then by token, as the Java process serves them.
 */
export async function getNftAllowances(c: Context<AppEnv>): Promise<Response> {
  const config = c.get('config');
  const url = pathAndQuery(c.req.url);
  const params = servletParams(url.query);
  // arguments convert in the method's order; the first that fails ends the request
  const id = parseJavaAccountId(c.req.param('idOrAliasOrEvmAddress') ?? '', config.common);
  const accountIds = rangeRequestParam(params, 'account.id', (text) => entityIdRangeParam(text, config.common));
  const limit = limitRequestParam(params);
  const order = orderRequestParam(params);
  const byOwner = booleanRequestParam(params, 'owner', true);
  const tokenIds = rangeRequestParam(params, 'token.id', (text) => entityIdRangeParam(text, config.common));
  checkConstraints([
    { name: 'account.id', ranges: accountIds },
    { name: 'limit', limit },
    { name: 'token.id', ranges: tokenIds },
  ]);

  let bounds: RangeBound[];
  try {
    const account = new RangeBound(accountIds, true, 'account.id', byOwner ? 'spender' : 'owner');
    const token = new RangeBound(tokenIds, false, 'token.id', 'token_id');
    checkAllowanceBounds(account, token);
    bounds = token.isEmpty() ? [account.isEmpty() ? token : account] : [account, token];
  } catch (error) {
    if (error instanceof RangeBoundError) throw javaBadRequest(error.message);
    throw error;
  }
  const accountId = await lookupJavaAccountId(c.get('db'), id);
  const rows = await nftAllowances(c.get('db'), {
    accountId,
    byOwner,
    bounds: boundConditions(bounds),
    order,
    limit,
  });
  const allowances = rows.map((row) => ({
    approved_for_all: row.approved_for_all,
    owner: entityId(row.owner),
    spender: entityId(row.spender),
    timestamp: { from: timestampString(row.timestamp_from), to: timestampString(row.timestamp_to) },
    token_id: entityId(row.token_id),
  }));

  const last = allowances[allowances.length - 1];
  const next =
    last && allowances.length >= limit
      ? javaNextLink({
          path: url.path,
          params,
          sort: ['account.id', 'token.id'],
          order,
          last: { 'account.id': String(byOwner ? last.spender : last.owner), 'token.id': String(last.token_id) },
        })
      : null;
  return jsonResponse({ allowances, links: { next } });
}
