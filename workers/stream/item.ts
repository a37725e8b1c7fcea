import type { BlockRow } from '../../db/queries/blocks.ts';
import type { ContractLogRow } from '../../db/queries/contract-logs.ts';
import type { TopicMessageRow } from '../../db/queries/topics-messages.ts';
import type { TransactionRow } from '../../db/queries/transactions.ts';
import { hex } from '../format/values.ts';
import { stringifyJson } from '../json.ts';
import { formatBlock } from '../routes/blocks/format.ts';
import { formatLog } from '../routes/contracts/format-log.ts';
import { formatTopicMessage } from '../routes/topics/message-format.ts';
import { formatTransaction } from '../routes/transactions/format.ts';
import type { Position } from './position.ts';

/**
 * One row of a stream, already written as the JSON its REST list route writes for it (one element of `messages`,
 * `blocks`, `logs` or `transactions`), with its place in the stream.
 */
export interface StreamItem extends Position {
  readonly json: string;
  /** A topic message with its message as text, as `encoding=utf-8` writes it. */
  readonly utf8Json?: string;
  /** A log's stored topics (lowercase hex, null where absent), for the subscribers' topic filters. */
  readonly topics?: readonly (string | null)[];
}

export const topicMessageItem = (row: TopicMessageRow): StreamItem => ({
  timestamp: BigInt(row.consensus_timestamp),
  index: 0,
  json: stringifyJson(formatTopicMessage(row)),
  utf8Json: stringifyJson(formatTopicMessage(row, true)),
});

export const blockItem = (row: BlockRow): StreamItem => ({
  timestamp: BigInt(row.consensus_end),
  index: 0,
  json: stringifyJson(formatBlock(row)),
});

export const transactionItem = (row: TransactionRow): StreamItem => ({
  timestamp: BigInt(row.consensus_timestamp),
  index: 0,
  json: stringifyJson(formatTransaction(row)),
});

export const logItem = (row: ContractLogRow): StreamItem => ({
  timestamp: BigInt(row.consensus_timestamp),
  index: row.index,
  json: stringifyJson(formatLog(row)),
  topics: [row.topic0, row.topic1, row.topic2, row.topic3].map((topic) => (topic === null ? null : hex(topic))),
});

/** True when a log's topics pass the subscriber's filters (each position: no values, or one of them). */
export function matchesTopics(item: StreamItem, filters: readonly (readonly string[])[]): boolean {
  return filters.every((values, i) => values.length === 0 || values.includes(item.topics?.[i] ?? ''));
}
