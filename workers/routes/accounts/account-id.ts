import type { Context } from 'hono';
import type { Database } from '../../../db/client.ts';
import { entityIdsByAlias, entityIdsByEvmAddress } from '../../../db/queries/accounts-lookup.ts';
import type { Config } from '../../config/config.ts';
import type { AppEnv } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { isAccountAliasText, parseAccountAlias } from '../../params/account-alias.ts';
import { isEntityIdText, parseEntityId } from '../../params/entity-id.ts';

export const ACCOUNT_PATH_PARAM = 'idOrAliasOrEvmAddress';
const MISSING_ALIAS_MESSAGE = 'No account with a matching alias found';

const hexToBytes = (hex: string): Uint8Array =>
  Uint8Array.from(hex.match(/../g) ?? [], (byte) => Number.parseInt(byte, 16));

/** One id, none, or (an inconsistent database) several: the reference answers the last with a 500. */
function single(ids: readonly bigint[]): bigint | undefined {
  if (ids.length > 1) throw ApiError.internal(new Error('several live entities match one alias or EVM address'));
  return ids[0];
}

/** The live account with this alias (a deleted flag of null counts as live), or null. */
export async function accountIdByAlias(db: Database, alias: Uint8Array): Promise<bigint | null> {
  return single(await entityIdsByAlias(db, alias, 'null-is-alive')) ?? null;
}

/**
 * The encoded id an account path segment names, as the reference's JavaScript API reads it: an entity id
 * (`shard.realm.num`, `realm.num`, `num`, an encoded id or a long-zero EVM address) as is, any other EVM address
 * or a base32 alias through the live entity that has it. Text of neither form, or with a foreign shard or realm,
 * is `Invalid parameter: <paramName>`. An address or alias that matches nothing is a 404 (`Not found` and
 * `No account with a matching alias found`), or `null` when `requireResult` is false.
 */
export async function resolveAccountId(
  db: Database,
  text: string,
  config: Config,
  options: { requireResult?: boolean; paramName?: string } = {},
): Promise<bigint | null> {
  const { requireResult = true, paramName = ACCOUNT_PATH_PARAM } = options;
  const system = { shard: config.common.shard, realm: config.common.realm };
  if (isEntityIdText(text)) {
    const parsed = parseEntityId(text, system);
    if (!parsed) throw ApiError.invalidParams(paramName);
    if (parsed.kind === 'num') return parsed.encoded;
    const id = single(await entityIdsByEvmAddress(db, hexToBytes(parsed.address)));
    if (id !== undefined) return id;
    if (requireResult) throw ApiError.notFound();
    return null;
  }
  if (isAccountAliasText(text)) {
    const alias = parseAccountAlias(text, system);
    if (!alias) throw ApiError.invalidParams(paramName);
    const id = await accountIdByAlias(db, alias);
    if (id !== null) return id;
    if (requireResult) throw ApiError.notFound(MISSING_ALIAS_MESSAGE);
    return null;
  }
  throw ApiError.invalidParams(paramName);
}

/** `resolveAccountId` for the path segment of a route that needs the account: 400 or 404 otherwise. */
export async function requireAccountId(c: Context<AppEnv>): Promise<bigint> {
  const id = await resolveAccountId(c.get('db'), c.req.param(ACCOUNT_PATH_PARAM) ?? '', c.get('config'));
  // a lookup that requires a result throws rather than answer null
  if (id === null) throw ApiError.notFound();
  return id;
}
