/**
 * One subscription's queue of live messages, filled by the shared poll and drained by the subscription. It holds
 * at most `maxBufferSize` messages: a client that falls that far behind is ended with DEADLINE_EXCEEDED (the
 * reference's overflow), so a slow client never makes the server buffer without bound.
 */
import { status } from '@grpc/grpc-js';
import { GrpcStatusError, OVERFLOW_ERROR } from '../status.ts';
import type { TopicMessage } from './messages-query.ts';

export class LiveFeed {
  /** The feed receives the topic's messages with a consensus timestamp after this one. */
  readonly cursor: bigint;
  private readonly maxBufferSize: number;
  private readonly onClose: () => void;
  private readonly queue: TopicMessage[] = [];
  private overflowed = false;
  private closed = false;
  private wake: (() => void) | undefined;

  constructor(cursor: bigint, maxBufferSize: number, onClose: () => void) {
    this.cursor = cursor;
    this.maxBufferSize = maxBufferSize;
    this.onClose = onClose;
  }

  push(message: TopicMessage): void {
    if (this.closed || this.overflowed) return;
    if (this.queue.length >= this.maxBufferSize) {
      this.overflowed = true;
      this.queue.length = 0;
    } else {
      this.queue.push(message);
    }
    this.wake?.();
  }

  /**
   * The next message; undefined when `timeoutMs` passes first or the feed is closed. Throws once the buffer has
   * overflowed.
   */
  async next(timeoutMs?: number): Promise<TopicMessage | undefined> {
    if (this.queue.length === 0 && !this.overflowed && !this.closed) {
      await new Promise<void>((resolve) => {
        const timer = timeoutMs === undefined ? undefined : setTimeout(done, timeoutMs);
        const self = this;
        function done() {
          clearTimeout(timer);
          self.wake = undefined;
          resolve();
        }
        this.wake = done;
      });
    }
    if (this.overflowed) throw new GrpcStatusError(status.DEADLINE_EXCEEDED, OVERFLOW_ERROR);
    return this.queue.shift();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.length = 0;
    this.wake?.();
    this.onClose();
  }
}
