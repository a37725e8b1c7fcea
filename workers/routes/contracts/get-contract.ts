import type { Context, Next } from 'hono';
import { contractByKey } from '../../../db/queries/contracts.ts';
import type { AppEnv } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { requestFilters } from '../../params/request-query.ts';
import { timestampParam } from '../../params/timestamp.ts';
import { jsonResponse } from '../../respond.ts';
import { checkContractIdPath, contractKey } from './contract-id.ts';
import { formatContractDetail } from './format-contract.ts';

/**
 * `GET /contracts/{contractIdOrAddress}`: the contract with its code; with `timestamp` filters, the version of it
 * valid then. `/contracts/results` passes on to its own route.
 */
export async function getContractRoute(c: Context<AppEnv>, next: Next): Promise<Response | undefined> {
  const text = c.req.param('contractId') ?? '';
  if (text === 'results') {
    await next();
    return undefined;
  }
  const config = c.get('config');
  checkContractIdPath(text);
  const filters = requestFilters(c, { timestamp: timestampParam });
  const key = contractKey(text, config.common);
  const rows = await contractByKey(c.get('db'), key, filters);
  const row = rows.length === 1 ? rows[0] : undefined;
  if (!row) throw ApiError.notFound();
  return jsonResponse(formatContractDetail(row));
}
