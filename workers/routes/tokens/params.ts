import type { Config } from '../../config/config.ts';
import { ApiError } from '../../errors.ts';
import { encodedEntityIdBound, requireEntityId } from '../../params/entity-id.ts';
import type { ParamParser } from '../../params/filters.ts';
import { parsePositiveLong } from '../../params/scalars.ts';

/** `{tokenId}` in a path: an entity id or a long-zero EVM address, else `Invalid parameter: tokenid`. */
export function tokenIdPathParam(text: string, config: Config): bigint {
  const id = requireEntityId(text, {
    ...config.common,
    allowEvmAddress: true,
    evmAddressType: 'num-alias',
    paramName: 'tokenid',
  });
  if (id.kind !== 'num') throw ApiError.invalidParams('tokenid');
  return id.encoded;
}

/** `{serialNumber}` in a path: a positive long, else `Invalid parameter: serialnumber`. */
export function serialNumberPathParam(text: string): bigint {
  const serial = parsePositiveLong(text);
  if (serial === undefined) throw ApiError.invalidParams('serialnumber');
  return serial;
}

const TOKEN_TYPES = ['all', 'fungible_common', 'non_fungible_unique'];

/** `type`: a token type or `all`, any case, under any operator; upper-cased as the `token_type` enum spells it. */
export const tokenTypeParam: ParamParser<string> = (value) =>
  TOKEN_TYPES.includes(value.toLowerCase()) ? value.toUpperCase() : undefined;

const utf8 = new TextEncoder();

/** `name`: 3 to 100 bytes of UTF-8, `eq` only. */
export const nameParam: ParamParser<string> = (value, operator) => {
  const length = utf8.encode(value).length;
  return operator === 'eq' && length >= 3 && length <= 100 ? value : undefined;
};

/** `account.balance`: a long from 0, under any operator. */
export const accountBalanceParam: ParamParser<bigint> = (value) => parsePositiveLong(value, true);

/** The encoded id of an entity id text in a next link's bound (for the empty-range check). */
export const entityIdBound =
  (config: Config) =>
  (_field: string, value: string): bigint | undefined => {
    return encodedEntityIdBound(value, { ...config.common, evmAddressType: 'num-alias' });
  };
