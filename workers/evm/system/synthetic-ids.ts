/**
 * The accounts a system contract's synthetic CryptoTransfer or TokenAirdrop names, as the consensus node's
 * SyntheticIds and ConversionUtils.accountNumberForEvmReference find them: an address names an account only when
 * it is that account's own (priority) address, its EVM address when it has one, else its long-zero form; the
 * long-zero form of an account or contract that has an EVM address names nothing (a non-canonical reference), and
 * so does any address of a deleted account (the reference's state holds no deleted entities). A credit to an
 * address that names nothing becomes a credit to an alias: the address itself, or the zero address for a
 * non-canonical reference; a debit stays numeric (the long-zero's number, 0 for a non-canonical reference).
 */
import { decodeEntityId } from '../../params/entity-id.ts';
import { entityIdOfLongZero } from '../addresses.ts';
import type { EvmEntity } from '../types.ts';
import { accountAt, type HtsCall } from './hts-context.ts';
import { fail } from './token-dispatch.ts';

const ADDRESS_BYTES = 20;
const PREFIX_BYTES = 12;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** The live account `address` is the priority address of, or undefined. */
export async function transferAccount(call: HtsCall, address: Uint8Array): Promise<EvmEntity | undefined> {
  const account = await accountAt(call, address);
  if (!account || account.deleted) return undefined;
  return sameBytes(call.reader.canonicalAddress(account), address) ? account : undefined;
}

/** `transferAccount`, failing the dispatch with INVALID_ACCOUNT_ID when the address names no account. */
export async function requireTransferAccount(call: HtsCall, address: Uint8Array): Promise<EvmEntity> {
  return (await transferAccount(call, address)) ?? fail('INVALID_ACCOUNT_ID');
}

/**
 * Whether an alias made of `address` is an "entity num alias" (AliasUtils.isEntityNumAlias): it starts with the
 * network's shard and realm, or with twelve zero bytes (the zero address among them). The node never creates an
 * account with such an alias.
 */
export function isEntityNumAlias(call: HtsCall, address: Uint8Array): boolean {
  if (address.length !== ADDRESS_BYTES) return false;
  if (address.subarray(0, PREFIX_BYTES).every((byte) => byte === 0)) return true;
  const view = new DataView(address.buffer, address.byteOffset, address.byteLength);
  const { shard, realm } = call.reader.settings;
  return BigInt(view.getUint32(0)) === shard && view.getBigUint64(4) === realm;
}

/**
 * The account number the node's debit conversion (`AddressIdConverter.convert`) gives `address`, or undefined for
 * an alias (an EVM address that names no account) or the zero address (an id with no number).
 */
export async function debitNumber(call: HtsCall, address: Uint8Array): Promise<bigint | undefined> {
  const account = await transferAccount(call, address);
  if (account) return decodeEntityId(account.id)?.num;
  if (address.every((byte) => byte === 0) || !isEntityNumAlias(call, address)) return undefined;
  const { shard, realm } = call.reader.settings;
  const id = entityIdOfLongZero(address, shard, realm);
  const named = id === undefined ? undefined : (call.tokens.createdAccount(id) ?? (await call.reader.entityById(id)));
  // The long-zero form of a live account or contract with an EVM address is the non-canonical reference, number 0.
  if (named && !named.deleted && (named.type === 'ACCOUNT' || named.type === 'CONTRACT')) return 0n;
  return new DataView(address.buffer, address.byteOffset, address.byteLength).getBigUint64(PREFIX_BYTES);
}
