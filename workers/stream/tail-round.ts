import type { Database } from '../../db/client.ts';
import { listBlocks } from '../../db/queries/blocks.ts';
import { contractLogsInRange } from '../../db/queries/contract-logs.ts';
import { topicMessagesInRange } from '../../db/queries/topics-messages.ts';
import { accountTransactionsInRange } from '../../db/queries/transactions-stream.ts';
import type { Config } from '../config/config.ts';
import { blockItem, logItem, type StreamItem, topicMessageItem, transactionItem } from './item.ts';
import { parseStreamKey, type StreamKind } from './subscription.ts';

/** The last record file the tail has passed: every row at or before its `consensus_end` is committed and was read. */
export interface Watermark {
  readonly index: bigint;
  readonly end: bigint;
}

/** What one round of the tail found: the rows of `(from, to]` for each stream key that has any. */
export interface Round {
  readonly watermark: Watermark;
  readonly from: bigint;
  readonly to: bigint;
  readonly items: ReadonlyMap<string, StreamItem[]>;
  /** Statements the round ran. */
  readonly statements: number;
  /** More record files are waiting than one round reads. */
  readonly behind: boolean;
}

/** What the tail hands one hub after a round: the rows of `(from, to]` of that hub's stream keys. */
export interface Batch {
  readonly from: bigint;
  readonly to: bigint;
  /** Every key the tail holds for the hub, with its rows (none for most). */
  readonly items: Readonly<Record<string, readonly StreamItem[]>>;
}

/** Record files one round reads at most, so a round stays small after the tail has been stopped a while. */
const FILES_PER_ROUND = 20;

/** The newest record file, where a tail with no watermark yet starts; nothing but index -1 on an empty database. */
export async function latestWatermark(db: Database): Promise<Watermark> {
  const [last] = await listBlocks(db, { conditions: [], orderBy: 'index', order: 'desc', limit: 1 });
  return last ? { index: BigInt(last.index), end: BigInt(last.consensus_end) } : { index: -1n, end: 0n };
}

/**
 * One round of the tail. The ingest commits each record file with all its rows in one transaction, files in order,
 * so once a record file is visible every row up to its `consensus_end` is: the new files give the range `(from, to]`
 * that is complete, and one statement per kind with subscribers reads that range for all of that kind's keys. A
 * round without new files is the one statement that looks for them, whatever the number of subscribers.
 */
export async function readRound(
  db: Database,
  watermark: Watermark,
  keys: Iterable<string>,
  config: Config,
): Promise<Round | undefined> {
  const files = await listBlocks(db, {
    conditions: [{ column: 'index', operator: 'gt', value: watermark.index }],
    orderBy: 'index',
    order: 'asc',
    limit: FILES_PER_ROUND,
  });
  const last = files[files.length - 1];
  if (!last) return undefined;
  const from = watermark.end;
  const to = BigInt(last.consensus_end);
  const ids: Record<Exclude<StreamKind, 'blocks'>, bigint[]> = { topic: [], account: [], logs: [] };
  const items = new Map<string, StreamItem[]>();
  for (const key of keys) {
    const { kind, id } = parseStreamKey(key);
    if (kind === 'blocks') items.set(key, files.map(blockItem));
    else ids[kind].push(id);
  }
  const add = (key: string, item: StreamItem) => {
    const list = items.get(key);
    if (list) list.push(item);
    else items.set(key, [item]);
  };
  const reads: Promise<void>[] = [];
  if (ids.topic.length > 0) {
    reads.push(
      topicMessagesInRange(db, { topicIds: ids.topic, after: from, upTo: to }).then((rows) => {
        for (const row of rows) add(`topic:${row.topic_id}`, topicMessageItem(row));
      }),
    );
  }
  if (ids.account.length > 0) {
    reads.push(
      accountTransactionsInRange(db, {
        accounts: ids.account,
        after: from,
        upTo: to,
        precedingTypes: config.query.transactions.precedingTransactionTypes,
      }).then((rows) => {
        for (const row of rows) {
          const item = transactionItem(row);
          for (const account of row.accounts) add(`account:${account}`, item);
        }
      }),
    );
  }
  if (ids.logs.length > 0) {
    reads.push(
      contractLogsInRange(db, {
        contractIds: ids.logs,
        after: from,
        upTo: to,
        closeIntervalNs: BigInt(config.query.maxRecordFileCloseIntervalNs),
      }).then((rows) => {
        for (const row of rows) add(`logs:${row.contract_id}`, logItem(row));
      }),
    );
  }
  await Promise.all(reads);
  return {
    watermark: { index: BigInt(last.index), end: to },
    from,
    to,
    items,
    statements: 1 + reads.length,
    behind: files.length === FILES_PER_ROUND,
  };
}
