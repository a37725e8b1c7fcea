/**
 * ConsensusService.subscribeTopic as the reference serves it: the topic's historical messages first (throttled
 * pages of the retriever), then live ones, in consensus order, without gaps or repeats across the switch, until the
 * limit, the end time or the client's cancel.
 *
 * The switch: after the historical pages the subscription follows the topic on the shared poll, whose feed holds
 * every message after its cursor; the messages up to that cursor are read first (unthrottled catch-up pages), then
 * the feed's. A message already sent (by sequence number) is skipped; a gap in sequence numbers is filled from the
 * database before the message that revealed it, as the reference's missing-messages query does.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { entityIdString } from '../../ingest/decode/ids.ts';
import { sleep } from '../../ingest/sleep.ts';
import type { GrpcSettings } from '../settings.ts';
import { invalidArgument, notFound } from '../status.ts';
import { type TopicFilter, type TopicQueryObject, toTopicFilter } from './filter.ts';
import { findMessages, type TopicMessage } from './messages-query.ts';
import type { TopicTail } from './topic-tail.ts';

export interface SubscribeContext {
  readonly db: Database;
  readonly tail: TopicTail;
  readonly settings: GrpcSettings;
  /** Aborted when the client cancels or the server stops. */
  readonly signal: AbortSignal;
  /** Nanoseconds since the epoch. */
  readonly now: () => bigint;
}

/** NOT_FOUND for an unknown topic (unless the settings say not to check), INVALID_ARGUMENT for another entity. */
async function checkTopic(db: Database, topicId: bigint, checkTopicExists: boolean): Promise<void> {
  const rows = await db.rows<{ type: string }>(sql`select type from entity where id = ${topicId}`);
  const type = rows[0]?.type;
  if (type === undefined) {
    if (checkTopicExists) throw notFound(entityIdString(topicId));
    return;
  }
  if (type !== 'TOPIC') throw invalidArgument('Not a valid topic');
}

export async function* subscribeTopic(
  query: TopicQueryObject,
  context: SubscribeContext,
): AsyncGenerator<TopicMessage> {
  const { db, tail, settings, signal, now } = context;
  const subscribedAt = now();
  const filter = toTopicFilter(query, subscribedAt);
  await checkTopic(db, filter.topicId, settings.checkTopicExists);

  let last: TopicMessage | undefined;
  let count = 0n;
  const left = () => (filter.limit > 0n ? filter.limit - count : undefined);
  const pageLimit = (max: number) => {
    const remaining = left();
    return remaining === undefined || remaining > BigInt(max) ? max : Number(remaining);
  };
  const from = () => (last ? last.consensusTimestamp + 1n : filter.startTime);

  const { maxPageSize, pollingFrequencyMs, unthrottledMaxPageSize } = settings.retriever;
  for (;;) {
    const page = await findMessages(db, { ...filter, startTime: from(), limit: pageLimit(maxPageSize) });
    for (const message of page) {
      yield message;
      last = message;
      count++;
    }
    if (left() === 0n || page.length < maxPageSize || signal.aborted) break;
    await sleep(pollingFrequencyMs, signal);
  }
  if (left() === 0n || signal.aborted || isComplete(filter, subscribedAt, now(), settings.endTimeIntervalMs)) return;

  const feed = await tail.follow(filter.topicId);
  const close = () => feed.close();
  signal.addEventListener('abort', close);
  try {
    const upTo = feed.cursor + 1n;
    const catchUpEnd = filter.endTime !== undefined && filter.endTime < upTo ? filter.endTime : upTo;
    for (;;) {
      const limit = pageLimit(unthrottledMaxPageSize);
      const page = await findMessages(db, { ...filter, startTime: from(), endTime: catchUpEnd, limit });
      for (const message of page) {
        yield message;
        last = message;
        count++;
      }
      if (left() === 0n || page.length < limit || signal.aborted) break;
    }

    const waitMs = filter.endTime === undefined ? undefined : settings.endTimeIntervalMs;
    while (left() !== 0n && !signal.aborted) {
      const message = await feed.next(waitMs);
      if (!message) {
        if (isComplete(filter, subscribedAt, now(), settings.endTimeIntervalMs)) return;
        continue;
      }
      if (message.consensusTimestamp < filter.startTime) continue;
      if (filter.endTime !== undefined && message.consensusTimestamp >= filter.endTime) return;
      if (last && message.sequenceNumber <= last.sequenceNumber) continue;
      if (last && message.sequenceNumber > last.sequenceNumber + 1n) {
        const missing = Number(message.sequenceNumber - last.sequenceNumber - 1n);
        const gap = await findMessages(db, {
          topicId: filter.topicId,
          startTime: last.consensusTimestamp + 1n,
          endTime: message.consensusTimestamp,
          limit: pageLimit(missing),
        });
        for (const found of gap) {
          yield found;
          last = found;
          count++;
        }
        if (left() === 0n) return;
      }
      yield message;
      last = message;
      count++;
    }
  } finally {
    signal.removeEventListener('abort', close);
    feed.close();
  }
}

/**
 * The reference's end of a subscription with an end time: an end time before the subscription began ends it after
 * the stored messages; a later one once the end time lies `endTimeIntervalMs` in the past.
 */
function isComplete(filter: TopicFilter, subscribedAt: bigint, nowNs: bigint, endTimeIntervalMs: number): boolean {
  if (filter.endTime === undefined) return false;
  if (filter.endTime < subscribedAt) return true;
  return filter.endTime + BigInt(endTimeIntervalMs) * 1_000_000n < nowNs;
}
