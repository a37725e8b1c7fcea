/**
 * Who sends a call and pays for it (the reference's rules): without `from`, the treasury 0.0.2; `from` by
 * long-zero names an account id, otherwise an EVM address or alias; an unknown `from` is PAYER_ACCOUNT_NOT_FOUND;
 * a contract `from` is replaced by the treasury. With `validatePayerBalance` on, a call that pays (value or gas
 * price) from a given account checks its real balance.
 */
import { encodeEntityId } from '../params/entity-id.ts';
import { entityIdOfLongZero, longZeroAddress } from './addresses.ts';
import type { CallTransaction, EvmEntity, LedgerReader } from './types.ts';

const TREASURY_NUM = 2n;

export type Payer =
  | {
      readonly ok: true;
      /** `msg.sender` and `tx.origin` of the call: the payer's canonical address. */
      readonly sender: Uint8Array;
      /** The account whose real balance the call must see, when its balance is validated. */
      readonly validatedId: bigint | undefined;
    }
  | { readonly ok: false; readonly status: 'PAYER_ACCOUNT_NOT_FOUND' | 'INSUFFICIENT_PAYER_BALANCE' };

async function treasury(ledger: LedgerReader): Promise<Payer> {
  const id = encodeEntityId({ shard: ledger.settings.shard, realm: ledger.settings.realm, num: TREASURY_NUM });
  const entity = await ledger.entityById(id);
  return { ok: true, sender: entity ? ledger.canonicalAddress(entity) : longZeroAddress(id), validatedId: undefined };
}

async function fromEntity(ledger: LedgerReader, from: Uint8Array): Promise<EvmEntity | undefined> {
  const id = entityIdOfLongZero(from, ledger.settings.shard, ledger.settings.realm);
  const entity = await (id === undefined ? ledger.entityByAddress(from) : ledger.entityById(id));
  return entity && !entity.deleted ? entity : undefined;
}

export async function resolvePayer(ledger: LedgerReader, transaction: CallTransaction): Promise<Payer> {
  const from = transaction.from;
  if (!from || from.every((byte) => byte === 0)) return treasury(ledger);
  const entity = await fromEntity(ledger, from);
  if (!entity) return { ok: false, status: 'PAYER_ACCOUNT_NOT_FOUND' };
  if (entity.type === 'CONTRACT') return treasury(ledger);
  const pays = transaction.value > 0n || transaction.gasPrice > 0n;
  if (!ledger.settings.validatePayerBalance || !pays) {
    return { ok: true, sender: ledger.canonicalAddress(entity), validatedId: undefined };
  }
  const cost = transaction.value + transaction.gas * transaction.gasPrice;
  if (entity.balance < cost) return { ok: false, status: 'INSUFFICIENT_PAYER_BALANCE' };
  return { ok: true, sender: ledger.canonicalAddress(entity), validatedId: entity.id };
}
