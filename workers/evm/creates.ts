/**
 * CREATE and CREATE2 as the consensus node runs them: a CREATE's contract takes the long-zero address of the next
 * entity number, a CREATE2's the EIP-1014 address of its creator's canonical address (its EVM address, if it has
 * one). Either uses an entity number once its frame creates the account, past the collision check; a reverted
 * frame gives the number back (`LedgerState.numbers`).
 */
import type { EVM, Message } from '@ethereumjs/evm';
import { Address, generateAddress2 } from '@ethereumjs/util';
import type { LedgerState } from './ledger-state.ts';

/** @ethereumjs's address of a create message, a protected method of the EVM replaced here. */
type AddressOfCreate = (message: Message) => Promise<Address>;

/**
 * Gives `evm`'s creates Hedera's addresses and numbers; `entityAddress` is the long-zero address of an entity
 * number in the session's shard and realm.
 */
export function hederaCreates(evm: EVM, state: LedgerState, entityAddress: (num: bigint) => Uint8Array): void {
  const addressOf: AddressOfCreate = async (message) => {
    // Read here, where a failed read fails the run, so that the number is at hand when the account is created.
    const numbers = await state.numbers();
    if (message.salt) {
      const creator = await state.canonical(message.caller);
      return new Address(generateAddress2(creator.bytes, message.salt, message.code as Uint8Array));
    }
    return new Address(entityAddress(numbers.peek()));
  };
  (evm as unknown as { _generateAddress: AddressOfCreate })._generateAddress = addressOf;
  evm.events.on('newContract', (_contract, resolve) => {
    void state.numbers().then((numbers) => {
      numbers.use();
      resolve?.();
    });
  });
}
