/**
 * The EVM contract transactions run in. A consensus node gives a contract created through HAPI the long-zero
 * address of its new entity number, not an address derived from the creator's nonce, so the top-level CREATE of
 * a transaction lands where the transaction says; nested CREATEs keep Ethereum's rules. One instance serves every
 * transaction (building one compiles the fork's opcode and gas tables, and registers a listener on the shared
 * Common that is never removed): `beginTransaction` gives each its own transient storage, and the journal's
 * `cleanup` after each run empties the warm sets.
 */
import type { Common, StateManagerInterface } from '@ethereumjs/common';
import { EVM, EVMMockBlockchain, type Message, NobleBN254 } from '@ethereumjs/evm';
import type { Address } from '@ethereumjs/util';

export class HederaEvm extends EVM {
  private createdAt: Address | undefined;

  constructor(common: Common, stateManager: StateManagerInterface) {
    super({ common, stateManager, bn254: new NobleBN254(), blockchain: new EVMMockBlockchain() });
  }

  /** Starts a transaction: empty transient storage, and for a creation the address its contract gets. */
  beginTransaction(createdAt: Address | undefined): void {
    this.createdAt = createdAt;
    this.transientStorage.clear();
  }

  protected override async _generateAddress(message: Message): Promise<Address> {
    if (message.depth === 0 && this.createdAt) return this.createdAt;
    return super._generateAddress(message);
  }
}
