/**
 * Storage reads for one session, each slot read once: latest calls read `contract_state` (32-byte slots),
 * historical ones the newest `contract_state_change` at or before the block's end (slots with leading zeros
 * trimmed, as sidecars record them).
 */
import { hexOfBytes } from '../../db/bytea.ts';
import type { Database } from '../../db/client.ts';
import { currentSlot, historicalSlot } from '../../db/queries/evm-state.ts';
import type { LatestCaches } from './latest-cache.ts';
import type { BlockContext } from './types.ts';

const EMPTY = new Uint8Array();

function trimLeadingZeros(bytes: Uint8Array): Uint8Array {
  let start = 0;
  while (start < bytes.length && bytes[start] === 0) start++;
  return bytes.subarray(start);
}

export class SlotReader {
  private readonly db: Database;
  private readonly block: BlockContext;
  private readonly values = new Map<string, Promise<Uint8Array>>();

  private readonly latest: LatestCaches;

  constructor(db: Database, block: BlockContext, latest: LatestCaches) {
    this.db = db;
    this.block = block;
    this.latest = latest;
  }

  /** The value of a 32-byte slot at the block; empty when it was never written. */
  read(contractId: bigint, slot: Uint8Array): Promise<Uint8Array> {
    const key = `${contractId}/${hexOfBytes(slot)}`;
    let value = this.values.get(key);
    if (!value) {
      value = this.load(contractId, slot);
      this.values.set(key, value);
    }
    return value;
  }

  private async load(contractId: bigint, slot: Uint8Array): Promise<Uint8Array> {
    const value = this.block.historical
      ? await historicalSlot(this.db, contractId, trimLeadingZeros(slot), this.block.consensusEnd)
      : await this.latest.slots.get(`${contractId}/${hexOfBytes(slot)}`, () => currentSlot(this.db, contractId, slot));
    return value ?? EMPTY;
  }
}
