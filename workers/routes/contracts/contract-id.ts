import type { Database } from '../../../db/client.ts';
import { type ContractKey, entityIdsByEvmAddresses } from '../../../db/queries/contracts.ts';
import { ApiError } from '../../errors.ts';
import { type EntityIdOptions, isEntityIdText, isEvmAddressText, requireEntityId } from '../../params/entity-id.ts';

type System = Pick<EntityIdOptions, 'shard' | 'realm'>;

/**
 * The `{contractIdOrAddress}` path parameter: `shard.realm.num` (or shorter), an encoded id, or an EVM address with
 * an optional `0x` or `shard.realm.` prefix. Anything else is `Invalid parameter: contractid`.
 */
export function checkContractIdPath(text: string): void {
  if (!isEvmAddressText(text) && !isEntityIdText(text)) throw ApiError.invalidParams('contractid');
}

/**
 * The 40 hex digits of an EVM address that is not the long-zero alias of an entity num (whatever its shard and realm
 * prefix says: the reference looks such an address up as it is), else undefined.
 */
export function opaqueEvmAddress(text: string): string | undefined {
  const stripped = text.startsWith('0x') ? text.slice(2) : text;
  if (!isEvmAddressText(stripped) || isEvmAddressText(stripped, 'num-alias')) return undefined;
  return stripped.split('.').pop();
}

/**
 * How `/contracts/{id}` finds its entity: by EVM address, or by id (a bad id is the reference's
 * `Invalid entity ID "..."`).
 */
export function contractKey(text: string, system: System): ContractKey {
  const address = opaqueEvmAddress(text);
  if (address !== undefined) return { evmAddress: address };
  const parsed = requireEntityId(text.startsWith('0x') ? text.slice(2) : text, system);
  // An alias is no contract id: the reference fails on it with a 500, a bad id here.
  if (parsed.kind !== 'num') throw ApiError.badRequest(`Invalid entity ID "${text}"`);
  return { id: parsed.encoded };
}

/**
 * The encoded id of a contract named by id or EVM address. An EVM address must belong to exactly one live contract:
 * none is a 404 naming the address, several a 500 (the reference's answers).
 */
export async function resolveContractId(db: Database, text: string, system: System): Promise<bigint> {
  const address = opaqueEvmAddress(text);
  if (address === undefined) {
    const parsed = requireEntityId(text.startsWith('0x') ? text.slice(2) : text, {
      ...system,
      paramName: 'contractid',
    });
    if (parsed.kind !== 'num') throw ApiError.invalidParams('contractid');
    return parsed.encoded;
  }
  const ids = (await entityIdsByEvmAddresses(db, [address], true)).get(address.toLowerCase()) ?? [];
  if (ids.length === 0) throw ApiError.notFound(`No contract with the given evm address 0x${address} has been found.`);
  if (ids.length > 1) throw ApiError.internal(new Error(`several contracts with the evm address 0x${address}`));
  return ids[0] as bigint;
}
