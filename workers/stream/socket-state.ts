import { matchesTopics, type StreamItem } from './item.ts';
import { isAfter, later, type Position, through } from './position.ts';
import type { Subscription } from './subscription.ts';
import type { Batch } from './tail-round.ts';

/** One socket's state, kept as its attachment so that it outlives the hub's hibernation. */
export interface SocketState {
  readonly subscription: Subscription;
  readonly key: string;
  /** Null until the tail has answered the registration. */
  position: Position | null;
  /** Following the tail's batches; false while history is read for it. */
  live: boolean;
  /** Messages sent, and the count the client last acknowledged. */
  sent: number;
  acked: number;
}

/**
 * Sends the items after the socket's position that its filters pass, moving the position with each; false when the
 * buffer filled before the last of them (the rest stay unsent). The caller stores the state.
 */
export function sendItems(
  state: SocketState,
  items: readonly StreamItem[],
  maxBuffer: number,
  send: (text: string) => void,
): boolean {
  const { subscription } = state;
  for (const item of items) {
    if (!state.position || !isAfter(item, state.position)) continue;
    if (subscription.kind === 'logs' && !matchesTopics(item, subscription.topics)) continue;
    if (state.sent - state.acked >= maxBuffer) return false;
    send(subscription.kind === 'topic' && subscription.utf8 ? (item.utf8Json ?? item.json) : item.json);
    state.sent += 1;
    // Only logs share a timestamp: any other row's is passed entirely.
    state.position =
      subscription.kind === 'logs' ? { timestamp: item.timestamp, index: item.index } : through(item.timestamp);
  }
  return true;
}

/**
 * What a batch did to a live socket: nothing (no rows for it), `sent` rows, or it must read history: it is `behind`
 * the batch's start (it missed one), or its buffer was `full` before the batch's last row for it.
 */
export type Delivery = 'nothing' | 'sent' | 'behind' | 'full';

/**
 * Delivers a batch to a live socket. `base` is where the hub's previous batch ended, if it handled one: a live
 * socket stands at least there (it was live for that batch and every one before since its stored position, and
 * those that are not stored held nothing for it). The caller stores the state unless the answer is `nothing`.
 */
export function deliverBatch(
  state: SocketState,
  batch: Batch,
  base: bigint | undefined,
  maxBuffer: number,
  send: (text: string) => void,
): Delivery {
  if (!state.position) return 'nothing';
  const sent = state.sent;
  state.position = base === undefined ? state.position : later(state.position, through(base));
  if (isAfter(through(batch.from), state.position)) return 'behind';
  if (!sendItems(state, batch.items[state.key] ?? [], maxBuffer, send)) return 'full';
  return state.sent === sent ? 'nothing' : 'sent';
}
