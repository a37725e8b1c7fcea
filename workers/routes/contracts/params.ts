import { ApiError, invalidParamUsageMessage } from '../../errors.ts';
import { parseBlockNumber } from '../../params/block-number.ts';
import { type EntityIdOptions, isEntityIdText, isEvmAddressText, requireEntityId } from '../../params/entity-id.ts';
import type { ParamParser } from '../../params/filters.ts';
import { parseQueryString } from '../../params/query-string.ts';
import { parsePositiveLong } from '../../params/scalars.ts';

/**
 * The query parameters of the contract routes, validated as the reference does (its `filterValidityChecks` with
 * the contract routes' overrides). Values that need the database (EVM addresses) are resolved by the routes.
 */

/** `contract.id` of `/contracts`: an id (no EVM address form), or an EVM address (`eq` only), kept as text. */
export const contractIdQueryParam: ParamParser<string> = (value, operator) => {
  if (isEvmAddressText(value, 'optional-shard-realm')) return operator === 'eq' ? value : undefined;
  return isEntityIdText(value, { allowEvmAddress: false }) ? value : undefined;
};

export type SenderFilter = { kind: 'id'; id: bigint } | { kind: 'evm-address'; address: string };

/**
 * `from`: an entity id or an EVM address (plain or `0x`), under any operator. Ids are converted at once (an id out
 * of range is `Invalid parameter: from`); EVM addresses are resolved against the database by the route.
 */
export const fromParam =
  (system: Pick<EntityIdOptions, 'shard' | 'realm'>): ParamParser<SenderFilter> =>
  (value) => {
    if (!isEntityIdText(value, { evmAddressType: 'no-shard-realm' })) return undefined;
    if (isEvmAddressText(value)) return { kind: 'evm-address', address: value };
    const parsed = requireEntityId(value, { ...system, evmAddressType: 'no-shard-realm', paramName: 'from' });
    return parsed.kind === 'num' ? { kind: 'id', id: parsed.encoded } : undefined;
  };

const BLOCK_HASH = /^(0x)?([0-9A-Fa-f]{64}|[0-9A-Fa-f]{96})$/;

/** `block.hash`: a 32- or 48-byte hash in hex (`eq` only); the digits as given, without `0x`. */
export const blockHashParam: ParamParser<string> = (value, operator) =>
  operator === 'eq' ? BLOCK_HASH.exec(value)?.[2] : undefined;

/** `block.number` of the contract results routes: decimal or `0x` hex, `eq` only. */
export const contractBlockNumberParam: ParamParser<bigint> = (value, operator) =>
  operator === 'eq' ? parseBlockNumber(value) : undefined;

/** `transaction.index`: 0 to 2^63-1, `eq` only. */
export const transactionIndexParam: ParamParser<bigint> = (value, operator) =>
  operator === 'eq' ? parsePositiveLong(value, true) : undefined;

/**
 * `index` (of logs and actions): anything JavaScript reads as a finite number, not negative, under any operator.
 * The number is compared numerically.
 */
export const indexParam: ParamParser<number> = (value) => {
  const number = Number(value);
  if (Number.isNaN(Number.parseFloat(value)) || !Number.isFinite(number)) return undefined;
  return number >= 0 ? number : undefined;
};

const TOPIC = /^(0x)?[0-9A-Fa-f]{1,64}$/;

/**
 * `topic0` to `topic3`: up to 32 bytes in hex, `eq` only. Stored topics have no leading zero bytes, so the value
 * is returned as hex digits without `0x` or leading zeros (padded to whole bytes; empty for zero).
 */
export const topicParam: ParamParser<string> = (value, operator) => {
  if (operator !== 'eq' || !TOPIC.test(value)) return undefined;
  const digits = value.replace(/^(0x)?0*/, '');
  return digits.length % 2 === 0 ? digits : `0${digits}`;
};

const TRANSACTION_HASH = /^(0x)?([0-9A-Fa-f]{64}|[0-9A-Fa-f]{96})$/;

/** `transaction.hash` of logs: a 32-byte Ethereum or 48-byte Hedera hash in hex, `eq` only; digits without `0x`. */
export const transactionHashParam: ParamParser<string> = (value, operator) =>
  operator === 'eq' ? TRANSACTION_HASH.exec(value)?.[2] : undefined;

const SLOT = /^(0x)?[0-9A-Fa-f]{1,64}$/;

/** `slot` of `/contracts/{id}/state`: up to 32 bytes in hex, any operator but `ne`; kept as text. */
export const slotParam: ParamParser<string> = (value, operator) =>
  operator !== 'ne' && SLOT.test(value) ? value : undefined;

/**
 * The `hbar` query value as the reference reads it after validation: the raw text of a single `hbar` (`true` or
 * `false`, any case; default true). Anything else, including a repeated `hbar` or `hbar=eq:true`, is a 400.
 */
export function resolveHbar(search: string, maxRepeated: number): boolean {
  const param = parseQueryString(search, maxRepeated).find((p) => p.key === 'hbar');
  if (!param) return true;
  const only = param.values.length === 1 ? param.values[0] : undefined;
  if (typeof only === 'string') {
    const lower = only.toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
  }
  const shown = param.values.map((v) => (typeof v === 'string' ? v : '[object Object]')).join(',');
  throw ApiError.badRequest(`Invalid hbar parameter value: ${shown}. Must be 'true' or 'false'`);
}

/**
 * The reference's parameter dependencies of the contract results routes: `transaction.index` needs a block filter,
 * and `block.number` and `block.hash` exclude each other. Both problems are reported together.
 */
export function checkBlockFilterUsage(search: string, maxRepeated: number): void {
  const keys = new Set(parseQueryString(search, maxRepeated).map((p) => p.key));
  const messages: string[] = [];
  if (keys.has('transaction.index') && !keys.has('block.number') && !keys.has('block.hash')) {
    messages.push(
      invalidParamUsageMessage(
        'transaction.index',
        'transaction.index requires block.number or block.hash filter to be specified',
      ),
    );
  }
  if (keys.has('block.hash') && keys.has('block.number')) {
    messages.push(invalidParamUsageMessage('block.hash', 'cannot combine block.number and block.hash'));
  }
  if (messages.length > 0) throw ApiError.badRequest(messages);
}
