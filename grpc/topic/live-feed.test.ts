import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { GrpcStatusError, OVERFLOW_ERROR } from '../status.ts';
import { LiveFeed } from './live-feed.ts';
import type { TopicMessage } from './messages-query.ts';

const message = (sequenceNumber: bigint): TopicMessage => ({
  topicId: 1n,
  consensusTimestamp: sequenceNumber,
  sequenceNumber,
  message: Buffer.alloc(0),
  runningHash: Buffer.alloc(0),
  runningHashVersion: 3,
  chunkNum: null,
  chunkTotal: null,
  payerAccountId: null,
  validStartTimestamp: null,
  initialTransactionId: null,
});

describe('LiveFeed', () => {
  it('hands out pushed messages in order and waits for the next one', async () => {
    const feed = new LiveFeed(0n, 8, () => {});
    feed.push(message(1n));
    expect((await feed.next())?.sequenceNumber).toBe(1n);
    const waiting = feed.next();
    feed.push(message(2n));
    expect((await waiting)?.sequenceNumber).toBe(2n);
    expect(await feed.next(10)).toBeUndefined();
  });

  it('ends a subscriber that lets more than the buffer size wait with DEADLINE_EXCEEDED', async () => {
    const feed = new LiveFeed(0n, 2, () => {});
    for (const n of [1n, 2n, 3n]) feed.push(message(n));
    await expect(feed.next()).rejects.toEqual(new GrpcStatusError(status.DEADLINE_EXCEEDED, OVERFLOW_ERROR));
  });

  it('wakes a waiting subscriber when closed, and tells its owner once', async () => {
    let closed = 0;
    const feed = new LiveFeed(0n, 2, () => closed++);
    const waiting = feed.next();
    feed.close();
    feed.close();
    expect(await waiting).toBeUndefined();
    expect(closed).toBe(1);
  });
});
