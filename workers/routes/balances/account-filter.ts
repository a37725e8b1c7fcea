import type { Database } from '../../../db/client.ts';
import type { Comparison } from '../../../db/queries/comparison.ts';
import type { Config } from '../../config/config.ts';
import { ApiError } from '../../errors.ts';
import { isAccountAliasText, parseAccountAlias } from '../../params/account-alias.ts';
import { isEntityIdText, isEvmAddressText, requireEntityId } from '../../params/entity-id.ts';
import type { Filter, Operator } from '../../params/filters.ts';
import { accountIdByAlias, resolveAccountId } from '../accounts/account-id.ts';

const INVALID = 'Invalid parameter: account.id';

/**
 * The `account.id` filters of `/balances`, as the reference reads them once the query has passed validation
 * (where any operator and value passed): each distinct value in order is an entity id, or, once per request, an
 * EVM address or alias (no shard and realm) looked up among live entities (none found matches nothing). After an
 * address or alias, only `eq` values may follow.
 */
export async function balanceAccountFilters(
  db: Database,
  filters: readonly Filter<string, string>[],
  config: Config,
): Promise<Comparison<bigint | null>[]> {
  const seen = new Set<string>();
  const result: Comparison<bigint | null>[] = [];
  let lookups = 0;
  for (const { operator, value } of filters) {
    const key = `${operator}:${value}`;
    if (seen.has(key)) continue;
    seen.add(key);
    let id: bigint | null;
    if (isEntityIdText(value, { allowEvmAddress: false })) {
      const parsed = requireEntityId(value, config.common);
      id = parsed.kind === 'num' ? parsed.encoded : null;
    } else if (isEvmAddressText(value, 'no-shard-realm') && ++lookups === 1) {
      id = await resolveAccountId(db, value, config, { requireResult: false });
    } else if (isAccountAliasText(value, true) && ++lookups === 1) {
      const alias = parseAccountAlias(value, config.common);
      if (!alias) throw ApiError.badRequest(`Invalid accountAlias string ${value}`);
      id = await accountIdByAlias(db, alias);
    } else if (lookups > 1) {
      throw ApiError.badRequest({ message: INVALID, detail: 'Only one EVM address or alias is allowed.' });
    } else {
      throw ApiError.badRequest(INVALID);
    }
    if (operator !== 'eq' && lookups > 0) {
      throw ApiError.badRequest({ message: INVALID, detail: 'EVM address or alias only supports equals operator' });
    }
    result.push({ operator: operator as Operator, value: id });
  }
  return result;
}
