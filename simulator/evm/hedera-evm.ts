/**
 * The EVM one contract transaction runs in. A consensus node gives a contract created through HAPI the long-zero
 * address of its new entity number, not an address derived from the creator's nonce, so the top-level CREATE of
 * this EVM lands where the transaction says; nested CREATEs keep Ethereum's rules.
 */
import type { Common, StateManagerInterface } from '@ethereumjs/common';
import { EVM, EVMMockBlockchain, type Message, NobleBN254 } from '@ethereumjs/evm';
import type { Address } from '@ethereumjs/util';

export class HederaEvm extends EVM {
  private readonly createdAt: Address | undefined;

  /** A fresh EVM (empty warm sets, journal and transient storage) over `stateManager`. */
  constructor(common: Common, stateManager: StateManagerInterface, createdAt?: Address) {
    super({ common, stateManager, bn254: new NobleBN254(), blockchain: new EVMMockBlockchain() });
    this.createdAt = createdAt;
  }

  protected override async _generateAddress(message: Message): Promise<Address> {
    if (message.depth === 0 && this.createdAt) return this.createdAt;
    return super._generateAddress(message);
  }
}
