import type { Database } from '../../db/client.ts';
import { listBlocks } from '../../db/queries/blocks.ts';
import { contractLogs, type LogBound } from '../../db/queries/contract-logs.ts';
import { topicMessages } from '../../db/queries/topics-messages.ts';
import { listTransactions } from '../../db/queries/transactions-list.ts';
import type { Config } from '../config/config.ts';
import { blockItem, logItem, type StreamItem, topicMessageItem, transactionItem } from './item.ts';
import { type Position, through } from './position.ts';
import type { Subscription } from './subscription.ts';

/** Rows a subscriber catching up is sent per statement: the REST lists' largest page, so their plans apply. */
export const HISTORY_PAGE = 100;

/**
 * The next rows of one subscription after `from` and up to `upTo` (a timestamp the tail has already passed), in
 * stream order, at most `HISTORY_PAGE`: the statements of the matching REST list routes with the same filters
 * (`timestamp=gt:…&timestamp=lte:…&order=asc`), so a subscriber catching up gets exactly what those lists return.
 * Fewer than a page means nothing else is there up to `upTo`.
 */
export async function historyPage(
  db: Database,
  subscription: Subscription,
  from: Position,
  upTo: bigint,
  config: Config,
): Promise<StreamItem[]> {
  // Only logs stop inside a timestamp; every other kind has passed `from.timestamp` entirely.
  const after = from.timestamp;
  switch (subscription.kind) {
    case 'topic': {
      const rows = await topicMessages(db, {
        topicId: subscription.topicId,
        sequenceNumbers: [],
        timestamps: [
          { operator: 'gt', value: after },
          { operator: 'lte', value: upTo },
        ],
        order: 'asc',
        limit: HISTORY_PAGE,
      });
      return rows.map(topicMessageItem);
    }
    case 'blocks': {
      const rows = await listBlocks(db, {
        conditions: [
          { column: 'consensus_end', operator: 'gt', value: after },
          { column: 'consensus_end', operator: 'lte', value: upTo },
        ],
        orderBy: 'consensus_end',
        order: 'asc',
        limit: HISTORY_PAGE,
      });
      return rows.map(blockItem);
    }
    case 'account': {
      const rows = await listTransactions(db, {
        accounts: [{ operator: 'eq', account: subscription.accountId }],
        types: [],
        timestamp: { lower: after + 1n, upper: upTo, eq: null, ne: [] },
        order: 'asc',
        limit: HISTORY_PAGE,
        precedingTypes: config.query.transactions.precedingTransactionTypes,
      });
      return rows.map(transactionItem);
    }
    case 'logs': {
      const upper: LogBound = { column: 'consensus_timestamp', operator: 'lte', value: upTo };
      const later: LogBound[] = [{ column: 'consensus_timestamp', operator: 'gt', value: after }, upper];
      const parts =
        from.index === through(after).index
          ? [later]
          : [
              [
                { column: 'consensus_timestamp', operator: 'eq', value: after } satisfies LogBound,
                { column: 'index', operator: 'gt', value: from.index } satisfies LogBound,
              ],
              later,
            ];
      const rows = await contractLogs(db, {
        contractId: subscription.contractId,
        topics: subscription.topics,
        parts,
        order: 'asc',
        limit: HISTORY_PAGE,
        closeIntervalNs: BigInt(config.query.maxRecordFileCloseIntervalNs),
      });
      return rows.map(logItem);
    }
  }
}
