/**
 * The entity numbers a request allocates, as the consensus node allocates them: its counter holds the last number
 * used, so the next entity (a created contract, a created token) takes the highest entity number of the ledger at
 * the block + 1, and each further allocation within the request the number after. An allocation belongs to the EVM
 * frame that made it: a reverted frame gives its numbers back (the node keeps the counter in state, under the
 * frame's savepoint), so the counter is checkpointed with the EVM's state.
 */
import type { Database } from '../../db/client.ts';
import { highestEntityId } from '../../db/queries/evm-entity-numbers.ts';
import { decodeEntityId, encodeEntityId, MAX_NUM } from '../params/entity-id.ts';
import type { BlockContext, EvmSettings } from './types.ts';

/** `hedera.firstUserEntity`: numbers below it belong to system entities and are never allocated. */
export const FIRST_USER_ENTITY = 1001n;

/**
 * The number the request's first new entity takes at `block`: after the highest entity of the settings' shard and
 * realm created by the block's end (at `latest`: of all), at least `FIRST_USER_ENTITY`.
 */
export async function firstNewEntityNumber(
  db: Database,
  block: BlockContext,
  settings: Pick<EvmSettings, 'shard' | 'realm'>,
): Promise<bigint> {
  const { shard, realm } = settings;
  const range = {
    lowest: encodeEntityId({ shard, realm, num: 0n }),
    highest: encodeEntityId({ shard, realm, num: MAX_NUM }),
  };
  const highest = await highestEntityId(db, range, block.historical ? block.consensusEnd : undefined);
  const num = highest === undefined ? 0n : (decodeEntityId(highest)?.num ?? 0n);
  return num + 1n >= FIRST_USER_ENTITY ? num + 1n : FIRST_USER_ENTITY;
}

/** One run's allocations from `first` on, with a checkpoint per open EVM frame. */
export class EntityNumbers {
  private next: bigint;
  private readonly checkpoints: bigint[] = [];

  constructor(first: bigint) {
    this.next = first;
  }

  /** The number the next allocation takes; allocates nothing. */
  peek(): bigint {
    return this.next;
  }

  /** Allocates the next number. */
  use(): bigint {
    const num = this.next;
    this.next = num + 1n;
    return num;
  }

  checkpoint(): void {
    this.checkpoints.push(this.next);
  }

  /** Keeps the allocations made since the last checkpoint. */
  commit(): void {
    this.checkpoints.pop();
  }

  /** Gives back the allocations made since the last checkpoint. */
  revert(): void {
    const saved = this.checkpoints.pop();
    if (saved !== undefined) this.next = saved;
  }
}
