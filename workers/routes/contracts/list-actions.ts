import type { Context } from 'hono';
import { contractActions } from '../../../db/queries/contract-result-details.ts';
import type { AppEnv } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { cacheControlFor } from '../../finality/freshness.ts';
import type { ParamParser } from '../../params/filters.ts';
import { limitParam, orderParam, resolveLimit, resolveOrder } from '../../params/limit-order.ts';
import { requestFilters } from '../../params/request-query.ts';
import { jsonResponse } from '../../respond.ts';
import { formatAction } from './format-action.ts';
import { transactionTarget } from './get-result.ts';
import { contractsNextLink } from './paging.ts';
import { indexParam } from './params.ts';
import { isSettledTarget } from './result-finality.ts';

/**
 * The call tree of a transaction never changes once recorded (its sidecar is written with its record file): the
 * reference's ten minutes, final once the transaction named is settled (result-finality.ts).
 */
const ACTIONS_MAX_AGE = 600;

/** `index` of actions: as for logs, but `ne` is refused once the query is otherwise valid. */
const actionIndexParam: ParamParser<number> = (value, operator) => {
  const index = indexParam(value, operator);
  if (index !== undefined && operator === 'ne') throw ApiError.invalidParams('index');
  return index;
};

/** `GET /contracts/results/{transactionIdOrHash}/actions`: the transaction's contract actions by index. */
export async function listActionsRoute(c: Context<AppEnv>): Promise<Response> {
  const config = c.get('config');
  const filters = requestFilters(c, {
    index: actionIndexParam,
    limit: limitParam(c.get('maxLimit')),
    order: orderParam,
  });
  const limit = resolveLimit(filters, config.response.limit.default);
  const order = resolveOrder(filters, 'asc');
  const indexes = filters.flatMap((f) =>
    f.key === 'index' && f.operator !== 'ne' ? [{ operator: f.operator, value: f.value }] : [],
  );
  const target = transactionTarget(c.req.param('transactionIdOrHash') ?? '', c, 0);
  const found = await contractActions(c.get('db'), target, { indexes, order, limit });
  if (found === undefined) throw ApiError.notFound();
  const actions = found.rows.map(formatAction);
  const last = actions[actions.length - 1];
  const next = last && actions.length === limit ? contractsNextLink(c, order, { index: last.index }) : null;
  const final = isSettledTarget(target, found.target);
  return jsonResponse({ actions, links: { next } }, { cacheControl: cacheControlFor(c, final, ACTIONS_MAX_AGE) });
}
