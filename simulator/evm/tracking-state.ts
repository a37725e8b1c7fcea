/**
 * The EVM's state, remembering which storage slots one transaction touched: the value each slot had before the
 * transaction (what the sidecar reports as `value_read`) and which slots it wrote. The value written is read
 * back after execution, so a revert, which restores storage, leaves reads only.
 */
import type { Address } from '@ethereumjs/util';
import { JournaledStateManager } from './journaled-state.ts';

export interface SlotAccess {
  readonly address: string;
  readonly slot: Uint8Array;
  readonly before: Uint8Array;
  written: boolean;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

export class TrackingStateManager extends JournaledStateManager {
  private accesses = new Map<string, SlotAccess>();
  private tracking = false;

  startTracking(): void {
    this.accesses = new Map();
    this.tracking = true;
  }

  /** The slots touched since startTracking, in the order first touched. */
  stopTracking(): SlotAccess[] {
    this.tracking = false;
    return [...this.accesses.values()];
  }

  private async note(address: Address, key: Uint8Array, written: boolean): Promise<void> {
    const id = `${address.toString()}/${hex(key)}`;
    let access = this.accesses.get(id);
    if (!access) {
      this.tracking = false;
      const before = await super.getStorage(address, key);
      this.tracking = true;
      access = { address: address.toString(), slot: key, before, written: false };
      this.accesses.set(id, access);
    }
    if (written) access.written = true;
  }

  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    if (this.tracking) await this.note(address, key, false);
    return super.getStorage(address, key);
  }

  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    if (this.tracking) await this.note(address, key, true);
    return super.putStorage(address, key, value);
  }
}
