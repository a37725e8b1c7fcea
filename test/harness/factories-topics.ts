import type pg from 'pg';
import { insertRow } from './factories.ts';

export interface TopicMessageInput extends Record<string, unknown> {
  consensus_timestamp: bigint;
  topic_id: bigint | number;
  sequence_number: bigint | number;
}

/** A topic message with the schema's required columns filled in, unless `row` says otherwise. */
export async function insertTopicMessage(sql: pg.Client, row: TopicMessageInput): Promise<void> {
  await insertRow(sql, 'topic_message', {
    message: Buffer.from('message'),
    payer_account_id: 3,
    running_hash: Buffer.from('running_hash'),
    running_hash_version: 2,
    ...row,
  });
}

/**
 * `count` messages of one topic, sequence numbers 1..count, one nanosecond apart from `firstTimestamp`: seeded in
 * Postgres with generate_series, for tests that need realistic volumes.
 */
export async function seedTopicMessages(
  sql: pg.Client,
  topicId: bigint,
  count: number,
  firstTimestamp: bigint,
): Promise<void> {
  await sql.query(
    `insert into topic_message (consensus_timestamp, message, running_hash, sequence_number, running_hash_version,
                                payer_account_id, topic_id)
     select $1::bigint + n - 1, '\\x01', '\\x02', n, 3, 3, $2::bigint
       from generate_series(1, $3::bigint) n`,
    [firstTimestamp, topicId, count],
  );
}
