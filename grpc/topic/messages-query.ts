/**
 * Reads of the topic_message table, all through its (topic_id, consensus_timestamp) index: a page of one topic's
 * messages in a time range, the newest timestamp of a topic, and the shared poll's page of several topics, each
 * after its own cursor.
 */
import type pg from 'pg';

export interface TopicMessage {
  readonly topicId: bigint;
  readonly consensusTimestamp: bigint;
  readonly sequenceNumber: bigint;
  readonly message: Buffer;
  readonly runningHash: Buffer;
  readonly runningHashVersion: number | null;
  readonly chunkNum: number | null;
  readonly chunkTotal: number | null;
  readonly payerAccountId: bigint | null;
  readonly validStartTimestamp: bigint | null;
  readonly initialTransactionId: Buffer | null;
}

interface TopicMessageRow {
  topic_id: string;
  consensus_timestamp: string;
  sequence_number: string;
  message: Buffer;
  running_hash: Buffer;
  running_hash_version: number | null;
  chunk_num: number | null;
  chunk_total: number | null;
  payer_account_id: string | null;
  valid_start_timestamp: string | null;
  initial_transaction_id: Buffer | null;
}

const COLUMNS = `topic_id, consensus_timestamp, sequence_number, message, running_hash, running_hash_version,
                 chunk_num, chunk_total, payer_account_id, valid_start_timestamp, initial_transaction_id`;

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
export async function findMessages(db: pg.Pool, page: MessagePage): Promise<TopicMessage[]> {
  const { rows } = await db.query<TopicMessageRow>(
    `select ${COLUMNS}
       from topic_message
      where topic_id = $1 and consensus_timestamp >= $2 and ($3::bigint is null or consensus_timestamp < $3)
      order by consensus_timestamp
      limit $4`,
    [page.topicId, page.startTime, page.endTime ?? null, page.limit],
  );
  return rows.map(toMessage);
}

/** The consensus timestamp of the topic's newest message; 0 when it has none. */
export async function latestTimestamp(db: pg.Pool, topicId: bigint): Promise<bigint> {
  const { rows } = await db.query<{ latest: string | null }>(
    'select max(consensus_timestamp) as latest from topic_message where topic_id = $1',
    [topicId],
  );
  return BigInt(rows[0]?.latest ?? 0);
}

/**
 * For each topic, up to `limit` of its messages after its cursor (exclusive), oldest first per topic: one
 * statement for every topic the shared poll follows.
 */
export async function findMessagesAfter(
  db: pg.Pool,
  cursors: ReadonlyMap<bigint, bigint>,
  limit: number,
): Promise<TopicMessage[]> {
  const { rows } = await db.query<TopicMessageRow>(
    `select m.*
       from unnest($1::bigint[], $2::bigint[]) as c(topic_id, after)
       cross join lateral (
             select ${COLUMNS}
               from topic_message t
              where t.topic_id = c.topic_id and t.consensus_timestamp > c.after
              order by t.consensus_timestamp
              limit $3) m
      order by m.topic_id, m.consensus_timestamp`,
    [[...cursors.keys()].map(String), [...cursors.values()].map(String), limit],
  );
  return rows.map(toMessage);
}
