import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { COMMITTED_END } from './committed-end.ts';
import { type Comparison, compare } from './comparison.ts';
import { int8ArrayText } from './int8.ts';
import { limitOf } from './limit.ts';

/** A `topic_message` row. int8 columns are strings. */
export interface TopicMessageRow extends Record<string, unknown> {
  chunk_num: number | null;
  chunk_total: number | null;
  consensus_timestamp: string;
  initial_transaction_id: Uint8Array | null;
  message: Uint8Array;
  payer_account_id: string | null;
  running_hash: Uint8Array;
  running_hash_version: number | null;
  sequence_number: string;
  topic_id: string;
  valid_start_timestamp: string | null;
  /** `COMMITTED_END` of the statement. */
  committed_end: string | null;
}

/** An inclusive range of sequence numbers or timestamps. */
export interface InclusiveRange {
  lower: bigint;
  upper: bigint;
}

export interface TopicMessagesQuery {
  topicId: bigint;
  sequenceNumbers: readonly Comparison<bigint>[];
  timestamps: readonly Comparison<bigint>[];
  order: 'asc' | 'desc';
  limit: number;
  /**
   * With `query.topicMessageLookup`, the filters folded into ranges: the `topic_message_lookup` table then gives the
   * consensus timestamp ranges that can hold the page, and each is read on the (topic, timestamp) index.
   */
  lookup?: { sequenceNumber: InclusiveRange; timestamp: InclusiveRange };
}

const COLUMNS = sql`tm.chunk_num, tm.chunk_total, tm.consensus_timestamp, tm.initial_transaction_id, tm.message,
       tm.payer_account_id, tm.running_hash, tm.running_hash_version, tm.sequence_number, tm.topic_id,
       tm.valid_start_timestamp, ${COMMITTED_END} as committed_end`;

const rangeText = ({ lower, upper }: InclusiveRange): string => `[${lower},${upper}]`;

/**
 * A page of a topic's messages by consensus timestamp in `order`: one statement, bounded by `limit` on the
 * `(topic_id, consensus_timestamp)` index.
 */
export function topicMessages(db: Database, query: TopicMessagesQuery): Promise<TopicMessageRow[]> {
  const order = sql.raw(query.order);
  const conditions: SQL[] = [
    sql`tm.topic_id = ${query.topicId}`,
    ...query.sequenceNumbers.map((filter) => compare(sql`tm.sequence_number`, filter)),
    ...query.timestamps.map((filter) => compare(sql`tm.consensus_timestamp`, filter)),
  ];
  const where = sql.join(conditions, sql` and `);
  if (!query.lookup) {
    return db.rows<TopicMessageRow>(sql`
      select ${COLUMNS}
        from topic_message tm
       where ${where}
       order by tm.consensus_timestamp ${order}
       limit ${limitOf(query.limit)}`);
  }

  return db.rows<TopicMessageRow>(sql`
    with ${lookupRanges(query, query.lookup)}
    select m.*
      from ranges r
     cross join lateral (
       select ${COLUMNS}
         from topic_message tm
        where ${where}
          and tm.consensus_timestamp >= lower(r.timestamp_range) and tm.consensus_timestamp < upper(r.timestamp_range)
        order by tm.consensus_timestamp ${order}
        limit ${limitOf(query.limit)}) m
     order by m.consensus_timestamp ${order}
     limit ${limitOf(query.limit)}`);
}

/**
 * CTEs ending in `ranges(timestamp_range)`: the lookup rows that overlap both ranges. When the sequence number range
 * holds more numbers than a page, it is first narrowed to the page: from the first matching lookup row in `order`,
 * widened by `limit` (the first row may start anywhere inside its range), so no message of the page is missed.
 */
function lookupRanges(query: TopicMessagesQuery, lookup: NonNullable<TopicMessagesQuery['lookup']>): SQL {
  const topic = sql`${query.topicId}::bigint`;
  const sequenceRange = sql`${rangeText(lookup.sequenceNumber)}::int8range`;
  const timestampRange = sql`${rangeText(lookup.timestamp)}::int8range`;
  const size = lookup.sequenceNumber.upper - lookup.sequenceNumber.lower + 1n;
  if (size <= BigInt(query.limit)) {
    return sql`ranges as (
      select timestamp_range
        from topic_message_lookup
       where topic_id = ${topic} and sequence_number_range && ${sequenceRange}
         and timestamp_range && ${timestampRange})`;
  }
  const limit = sql`${query.limit}::bigint`;
  const widened =
    query.order === 'asc'
      ? sql`int8range(lower(range),
                      least(upper(range) + least(${limit}, 9223372036854775807::bigint - upper(range)),
                            upper(${sequenceRange})), '[)')`
      : sql`int8range(greatest(lower(range) - (${limit} - 1), lower(${sequenceRange})), upper(range), '[)')`;
  return sql`actual_range as (
      select ${widened} as range
        from (select sequence_number_range as range
                from topic_message_lookup
               where topic_id = ${topic} and sequence_number_range && ${sequenceRange}
                 and timestamp_range && ${timestampRange}
               order by sequence_number_range ${sql.raw(query.order)}
               limit 1) first_range),
    ranges as (
      select l.timestamp_range
        from topic_message_lookup l, actual_range a
       where l.topic_id = ${topic} and l.sequence_number_range && a.range
         and l.timestamp_range && ${timestampRange})`;
}

/** A topic's message by sequence number; with `useLookup`, only within the lookup row holding that number. */
export async function topicMessageBySequence(
  db: Database,
  query: { topicId: bigint; sequenceNumber: bigint; useLookup: boolean },
): Promise<TopicMessageRow | undefined> {
  const match = sql`tm.topic_id = ${query.topicId} and tm.sequence_number = ${query.sequenceNumber}`;
  const rows = query.useLookup
    ? await db.rows<TopicMessageRow>(sql`
        select ${COLUMNS}
          from (select timestamp_range
                  from topic_message_lookup
                 where topic_id = ${query.topicId}::bigint and sequence_number_range @> ${query.sequenceNumber}::bigint
                 order by sequence_number_range
                 limit 1) l
          join topic_message tm
            on ${match} and tm.consensus_timestamp >= lower(l.timestamp_range)
           and tm.consensus_timestamp < upper(l.timestamp_range)`)
    : await db.rows<TopicMessageRow>(sql`select ${COLUMNS} from topic_message tm where ${match}`);
  return rows.length === 1 ? rows[0] : undefined;
}

/** The message of a successful CONSENSUSSUBMITMESSAGE transaction (type 27, result SUCCESS) at `timestamp`. */
export async function topicMessageByTimestamp(db: Database, timestamp: bigint): Promise<TopicMessageRow | undefined> {
  const rows = await db.rows<TopicMessageRow>(sql`
    select ${COLUMNS}
      from transaction t
      join topic_message tm on tm.topic_id = t.entity_id and tm.consensus_timestamp = t.consensus_timestamp
     where t.consensus_timestamp = ${timestamp} and t.result = 22 and t.type = 27`);
  return rows.length === 1 ? rows[0] : undefined;
}

/**
 * Every message of the given topics with a consensus timestamp in `(after, upTo]`, in timestamp order: what the
 * stream tail reads once per new range of record files for all topic subscriptions together.
 */
export function topicMessagesInRange(
  db: Database,
  query: { topicIds: readonly bigint[]; after: bigint; upTo: bigint },
): Promise<TopicMessageRow[]> {
  return db.rows<TopicMessageRow>(sql`
    select ${COLUMNS}
      from topic_message tm
     where tm.topic_id = any(${int8ArrayText(query.topicIds)}::bigint[])
       and tm.consensus_timestamp > ${query.after} and tm.consensus_timestamp <= ${query.upTo}
     order by tm.consensus_timestamp`);
}

/** The consensus timestamp of the topic's newest message; 0 when it has none. */
export async function newestTopicMessageTimestamp(db: Database, topicId: bigint): Promise<bigint> {
  const rows = await db.rows<{ newest: string | null }>(
    sql`select max(consensus_timestamp) as newest from topic_message where topic_id = ${topicId}`,
  );
  return BigInt(rows[0]?.newest ?? 0);
}

/**
 * For each topic, up to `limit` of its messages after its cursor (exclusive), oldest first per topic: one statement
 * for every topic the gRPC server's shared poll follows, each read on the (topic_id, consensus_timestamp) index.
 */
export function topicMessagesAfterCursors(
  db: Database,
  cursors: ReadonlyMap<bigint, bigint>,
  limit: number,
): Promise<TopicMessageRow[]> {
  return db.rows<TopicMessageRow>(sql`
    select m.*
      from unnest(${int8ArrayText([...cursors.keys()])}::bigint[], ${int8ArrayText([...cursors.values()])}::bigint[])
           as c(topic_id, after)
     cross join lateral (
       select ${COLUMNS}
         from topic_message tm
        where tm.topic_id = c.topic_id and tm.consensus_timestamp > c.after
        order by tm.consensus_timestamp
        limit ${limitOf(limit)}) m
     order by m.topic_id, m.consensus_timestamp`);
}
