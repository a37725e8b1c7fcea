import type { Context } from 'hono';
import type { Database } from '../../../db/client.ts';
import {
  type AliveRule,
  type EntityAddress,
  entityIdsByAlias,
  entityIdsByEvmAddress,
} from '../../../db/queries/accounts-lookup.ts';
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
  requireOneMatch(ids.length);
  return ids[0];
}

/** Throws the reference's 500 when several live entities match one alias or EVM address. */
export function requireOneMatch(matches: number): void {
  if (matches > 1) throw ApiError.internal(new Error('several live entities match one alias or EVM address'));
}

/** An account looked up by alias is live when its deleted flag is null, as the reference's JavaScript API has it. */
const ALIAS_RULE: AliveRule = 'null-is-alive';

/** The live account with this alias, or null. */
export async function accountIdByAlias(db: Database, alias: Uint8Array): Promise<bigint | null> {
  return single(await entityIdsByAlias(db, alias, ALIAS_RULE)) ?? null;
}

/** What an account path segment names: an entity id as is, or an EVM address or alias to look up. */
export type AccountKey = { id: bigint } | { evmAddress: Uint8Array } | { alias: Uint8Array };

/** The EVM address or alias to look up, with the rule the account lookups keep deleted flags by. */
export function entityAddress(key: Exclude<AccountKey, { id: bigint }>): EntityAddress {
  return 'alias' in key ? { alias: key.alias, rule: ALIAS_RULE } : key;
}

/**
 * An account path segment as the reference's JavaScript API reads it: an entity id (`shard.realm.num`,
 * `realm.num`, `num`, an encoded id or a long-zero EVM address), any other EVM address, or a base32 alias. Text of
 * none of these forms, or with a foreign shard or realm, is `Invalid parameter: <paramName>`.
 */
export function accountKey(text: string, config: Config, paramName = ACCOUNT_PATH_PARAM): AccountKey {
  const system = { shard: config.common.shard, realm: config.common.realm };
  if (isEntityIdText(text)) {
    const parsed = parseEntityId(text, system);
    if (!parsed) throw ApiError.invalidParams(paramName);
    return parsed.kind === 'num' ? { id: parsed.encoded } : { evmAddress: hexToBytes(parsed.address) };
  }
  if (isAccountAliasText(text)) {
    const alias = parseAccountAlias(text, system);
    if (!alias) throw ApiError.invalidParams(paramName);
    return { alias };
  }
  throw ApiError.invalidParams(paramName);
}

/**
 * The encoded id an account path segment names (`accountKey`): an EVM address or alias through the live entity
 * that has it. One that matches nothing is a 404 (`Not found` and `No account with a matching alias found`), or
 * `null` when `requireResult` is false.
 */
export async function resolveAccountId(
  db: Database,
  text: string,
  config: Config,
  options: { requireResult?: boolean; paramName?: string } = {},
): Promise<bigint | null> {
  const { requireResult = true, paramName = ACCOUNT_PATH_PARAM } = options;
  return lookUpAccountKey(db, accountKey(text, config, paramName), requireResult);
}

/** The id of an `AccountKey`, looked up when it is an EVM address or alias (`resolveAccountId`). */
export async function lookUpAccountKey(db: Database, key: AccountKey, requireResult = true): Promise<bigint | null> {
  if ('id' in key) return key.id;
  const id =
    'evmAddress' in key
      ? (single(await entityIdsByEvmAddress(db, key.evmAddress)) ?? null)
      : await accountIdByAlias(db, key.alias);
  if (id !== null) return id;
  if (requireResult) throw noMatch(key);
  return null;
}

/** The 404 for an EVM address or alias that no live entity has. */
export function noMatch(key: AccountKey): ApiError {
  return 'alias' in key ? ApiError.notFound(MISSING_ALIAS_MESSAGE) : ApiError.notFound();
}

/** `resolveAccountId` for the path segment of a route that needs the account: 400 or 404 otherwise. */
export async function requireAccountId(c: Context<AppEnv>): Promise<bigint> {
  const id = await resolveAccountId(c.get('db'), c.req.param(ACCOUNT_PATH_PARAM) ?? '', c.get('config'));
  // a lookup that requires a result throws rather than answer null
  if (id === null) throw ApiError.notFound();
  return id;
}
