/**
 * The topic message reads of the gRPC server, on the queries the REST API shares (db/queries/topics-messages.ts),
 * with their rows as the subscription hands messages on.
 */
import type { Database } from '../../db/client.ts';
import type { Comparison } from '../../db/queries/comparison.ts';
import { type TopicMessageRow, topicMessages, topicMessagesAfterCursors } from '../../db/queries/topics-messages.ts';

export interface TopicMessage {
  readonly topicId: bigint;
  readonly consensusTimestamp: bigint;
  readonly sequenceNumber: bigint;
  readonly message: Uint8Array;
  readonly runningHash: Uint8Array;
  readonly runningHashVersion: number | null;
  readonly chunkNum: number | null;
  readonly chunkTotal: number | null;
  readonly payerAccountId: bigint | null;
  readonly validStartTimestamp: bigint | null;
  readonly initialTransactionId: Uint8Array | null;
}

const toMessage = (row: TopicMessageRow): TopicMessage => ({
  topicId: BigInt(row.topic_id),
  consensusTimestamp: BigInt(row.consensus_timestamp),
  sequenceNumber: BigInt(row.sequence_number),
  message: row.message,
  runningHash: row.running_hash,
  runningHashVersion: row.running_hash_version,
  chunkNum: row.chunk_num,
  chunkTotal: row.chunk_total,
  payerAccountId: row.payer_account_id === null ? null : BigInt(row.payer_account_id),
  validStartTimestamp: row.valid_start_timestamp === null ? null : BigInt(row.valid_start_timestamp),
  initialTransactionId: row.initial_transaction_id,
});

export interface MessagePage {
  readonly topicId: bigint;
  /** Inclusive. */
  readonly startTime: bigint;
  /** Exclusive; none: up to the newest. */
  readonly endTime: bigint | undefined;
  readonly limit: number;
}

/** Up to `limit` messages of the topic from `startTime` (inclusive) to `endTime` (exclusive), oldest first. */
export async function findMessages(db: Database, page: MessagePage): Promise<TopicMessage[]> {
  const timestamps: Comparison<bigint>[] = [{ operator: 'gte', value: page.startTime }];
  if (page.endTime !== undefined) timestamps.push({ operator: 'lt', value: page.endTime });
  const rows = await topicMessages(db, {
    topicId: page.topicId,
    sequenceNumbers: [],
    timestamps,
    order: 'asc',
    limit: page.limit,
  });
  return rows.map(toMessage);
}

/** For each followed topic, up to `limit` of its messages after its cursor, oldest first per topic. */
export async function findMessagesAfter(
  db: Database,
  cursors: ReadonlyMap<bigint, bigint>,
  limit: number,
): Promise<TopicMessage[]> {
  return (await topicMessagesAfterCursors(db, cursors, limit)).map(toMessage);
}
