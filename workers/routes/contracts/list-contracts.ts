import type { Context } from 'hono';
import type { Comparison } from '../../../db/queries/comparison.ts';
import { entityIdsByEvmAddresses, listContracts } from '../../../db/queries/contracts.ts';
import type { AppEnv } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { requireEntityId } from '../../params/entity-id.ts';
import { limitParam, orderParam, resolveLimit, resolveOrder } from '../../params/limit-order.ts';
import { requestFilters } from '../../params/request-query.ts';
import { jsonResponse } from '../../respond.ts';
import { opaqueEvmAddress } from './contract-id.ts';
import { formatContract } from './format-contract.ts';
import { contractsNextLink } from './paging.ts';
import { contractIdQueryParam } from './params.ts';

const LIST_MAX_AGE = 10;

/** `GET /contracts`: contracts in id order, filtered by `contract.id` (ids or EVM addresses). */
export async function listContractsRoute(c: Context<AppEnv>): Promise<Response> {
  const config = c.get('config');
  const db = c.get('db');
  const filters = requestFilters(c, {
    'contract.id': contractIdQueryParam,
    limit: limitParam(c.get('maxLimit')),
    order: orderParam,
  });
  const limit = resolveLimit(filters, config.response.limit.default);
  const order = resolveOrder(filters, 'desc');

  const idFilters = filters.flatMap((f) => (f.key === 'contract.id' ? [f] : []));
  const addresses = idFilters.flatMap((f) => opaqueEvmAddress(f.value) ?? []);
  const byAddress = await entityIdsByEvmAddresses(db, addresses, true);
  const ids: bigint[] = [];
  const comparisons: Comparison<bigint>[] = [];
  // in the order given, as the reference converts them: the first failure is the answer
  for (const { operator, value } of idFilters) {
    const address = opaqueEvmAddress(value);
    let id: bigint;
    if (address === undefined) {
      // the reference converts these as it does path ids, so a bad one is named `contractid`
      const parsed = requireEntityId(value, { ...config.common, paramName: 'contractid' });
      if (parsed.kind !== 'num') throw ApiError.invalidParams('contractid');
      id = parsed.encoded;
    } else {
      const found = byAddress.get(address.toLowerCase()) ?? [];
      if (found.length === 0) {
        throw ApiError.notFound(`No contract with the given evm address 0x${address} has been found.`);
      }
      if (found.length > 1) throw ApiError.internal(new Error(`several contracts with the evm address ${address}`));
      id = found[0] as bigint;
    }
    if (operator === 'eq') ids.push(id);
    else comparisons.push({ operator, value: id });
  }

  const rows = await listContracts(db, { ids, comparisons, order, limit });
  const contracts = rows.map(formatContract);
  const last = contracts[contracts.length - 1];
  const next =
    contracts.length === limit && last ? contractsNextLink(c, order, { 'contract.id': last.contract_id ?? '' }) : null;
  return jsonResponse({ contracts, links: { next } }, { maxAge: LIST_MAX_AGE });
}
