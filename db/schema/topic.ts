import { bigint, index, integer, pgTable, primaryKey, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { bytea, entityId, int8range, nanosTimestamp } from './column-types.ts';

const topicColumns = () => ({
  adminKey: bytea('admin_key'),
  createdTimestamp: bigint('created_timestamp', { mode: 'bigint' }),
  id: bigint('id', { mode: 'bigint' }).notNull(),
  feeExemptKeyList: bytea('fee_exempt_key_list'),
  feeScheduleKey: bytea('fee_schedule_key'),
  submitKey: bytea('submit_key'),
  timestampRange: int8range('timestamp_range').notNull(),
});

export const topic = pgTable('topic', topicColumns(), (t) => [primaryKey({ name: 'topic_pkey', columns: [t.id] })]);

export const topicHistory = pgTable('topic_history', topicColumns());

export const topicMessage = pgTable(
  'topic_message',
  {
    consensusTimestamp: nanosTimestamp('consensus_timestamp').notNull(),
    message: bytea('message').notNull(),
    runningHash: bytea('running_hash').notNull(),
    sequenceNumber: bigint('sequence_number', { mode: 'bigint' }).notNull(),
    runningHashVersion: smallint('running_hash_version'),
    chunkNum: integer('chunk_num'),
    chunkTotal: integer('chunk_total'),
    payerAccountId: entityId('payer_account_id'),
    validStartTimestamp: nanosTimestamp('valid_start_timestamp'),
    topicId: bigint('topic_id', { mode: 'bigint' }).notNull(),
    initialTransactionId: bytea('initial_transaction_id'),
  },
  (t) => [
    uniqueIndex('topic_message__topic_id_seqnum').on(t.topicId, t.sequenceNumber),
    index('topic_message__topic_id_timestamp').on(t.topicId, t.consensusTimestamp),
  ],
);

export const topicMessageLookup = pgTable(
  'topic_message_lookup',
  {
    partition: text('partition').notNull(),
    sequenceNumberRange: int8range('sequence_number_range').notNull(),
    timestampRange: int8range('timestamp_range').notNull(),
    topicId: bigint('topic_id', { mode: 'bigint' }).notNull(),
  },
  (t) => [primaryKey({ name: 'topic_message_lookup_pkey', columns: [t.topicId, t.partition] })],
);
