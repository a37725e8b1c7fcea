import type { Context, Next } from 'hono';
import { contractByKey } from '../../../db/queries/contracts.ts';
import { settledEntity } from '../../../db/queries/entity-type.ts';
import type { AppEnv } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { finalNotFound } from '../../finality/freshness.ts';
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
  if (!row) throw rows.length === 0 && 'id' in key ? await notAContract(c, key.id) : ApiError.notFound();
  return jsonResponse(formatContractDetail(row));
}

/**
 * The 404 for an id with no contract: final when the id names an entity, of a known type, that can never be one (a
 * token, topic, file or schedule; an account without an EVM address, which cannot be a hollow account a CREATE2
 * completes), so an explorer asking whether each account it shows is a contract is answered at the edge from then on.
 */
async function notAContract(c: Context<AppEnv>, id: bigint): Promise<ApiError> {
  const entity = await settledEntity(c.get('db'), id);
  const never = entity?.typeKnown && entity.type !== 'CONTRACT' && !(entity.type === 'ACCOUNT' && entity.hasEvmAddress);
  return never ? finalNotFound(c) : ApiError.notFound();
}
