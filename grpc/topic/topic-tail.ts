/**
 * The shared poll of new topic messages (the reference's SHARED_POLL listener, narrowed to the topics someone
 * follows): every listener interval, one statement reads, for every followed topic, the messages after that
 * topic's cursor, and hands each to the feeds of its topic. The number of statements does not grow with the number
 * of subscribers; a full page is followed by another poll at once.
 *
 * Invariant: a feed receives exactly the topic's messages with a consensus timestamp after its `cursor`, oldest
 * first. It holds because the cursor only moves to a message handed to every feed of the topic, and the ingest
 * commits record files in timestamp order, so once a timestamp is seen no older message can appear.
 */
import type { Database } from '../../db/client.ts';
import { newestTopicMessageTimestamp } from '../../db/queries/topics-messages.ts';
import { LiveFeed } from './live-feed.ts';
import { findMessagesAfter, type TopicMessage } from './messages-query.ts';

export type Log = (fields: Record<string, unknown>) => void;

interface FollowedTopic {
  cursor: bigint;
  readonly feeds: Set<LiveFeed>;
}

export interface TopicTailOptions {
  readonly intervalMs: number;
  readonly maxPageSize: number;
  readonly maxBufferSize: number;
  readonly log: Log;
}

/** How much longer than the interval the poll waits after failures in a row (the reference backs off up to 4x). */
const MAX_BACKOFF = 4;

export class TopicTail {
  private readonly db: Database;
  private readonly options: TopicTailOptions;
  private readonly topics = new Map<bigint, FollowedTopic>();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private stopped = false;
  private failures = 0;
  /** Statements the poll has run: what the database pays for every live subscription together. */
  polls = 0;

  constructor(db: Database, options: TopicTailOptions) {
    this.db = db;
    this.options = options;
  }

  /** A feed of the topic's messages after the cursor it reports. Close it when done. */
  async follow(topicId: bigint): Promise<LiveFeed> {
    let topic = this.topics.get(topicId);
    if (!topic) {
      const cursor = await newestTopicMessageTimestamp(this.db, topicId);
      // Another subscription may have started following the topic during the query: its cursor is the one to use.
      topic = this.topics.get(topicId) ?? { cursor, feeds: new Set() };
      this.topics.set(topicId, topic);
    }
    const followed = topic;
    const feed = new LiveFeed(followed.cursor, this.options.maxBufferSize, () => {
      followed.feeds.delete(feed);
      if (followed.feeds.size === 0 && this.topics.get(topicId) === followed) this.topics.delete(topicId);
    });
    followed.feeds.add(feed);
    this.schedule(this.options.intervalMs);
    return feed;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(delayMs: number): void {
    if (this.timer || this.polling || this.stopped || this.topics.size === 0) return;
    this.timer = setTimeout(() => void this.poll(), delayMs);
  }

  private async poll(): Promise<void> {
    this.timer = undefined;
    this.polling = true;
    let fullPage = false;
    try {
      const cursors = new Map([...this.topics].map(([id, topic]) => [id, topic.cursor]));
      this.polls++;
      const messages = await findMessagesAfter(this.db, cursors, this.options.maxPageSize);
      const counts = new Map<bigint, number>();
      for (const message of messages) this.deliver(message, counts);
      fullPage = [...counts.values()].some((count) => count >= this.options.maxPageSize);
      this.failures = 0;
    } catch (error) {
      this.failures++;
      this.options.log({
        msg: 'polling topic messages failed',
        level: 'warn',
        error: error instanceof Error ? error.message : String(error),
        failures: this.failures,
      });
    } finally {
      this.polling = false;
      const backoff = Math.min(2 ** this.failures, MAX_BACKOFF);
      this.schedule(fullPage ? 0 : this.options.intervalMs * backoff);
    }
  }

  private deliver(message: TopicMessage, counts: Map<bigint, number>): void {
    counts.set(message.topicId, (counts.get(message.topicId) ?? 0) + 1);
    const topic = this.topics.get(message.topicId);
    // A topic followed again during the poll starts at a newer cursor: older messages are not its feeds'.
    if (!topic || message.consensusTimestamp <= topic.cursor) return;
    topic.cursor = message.consensusTimestamp;
    for (const feed of topic.feeds) feed.push(message);
  }
}
