import type { Config } from '../../config/config.ts';
import { nextLink } from '../../format/pagination.ts';
import { timestampString } from '../../format/values.ts';
import type { Order } from '../../params/limit-order.ts';
import { parseTimestamp } from '../../params/timestamp.ts';

/**
 * `links.next` of a page of transactions (the list and an account's embedded list). A full page continues after
 * its last transaction; a short page ends the list, unless the time window cut the search short (`windowEnd`):
 * then the next page starts past the window.
 */
export function transactionPageLink(options: {
  url: string;
  config: Config;
  order: Order;
  limit: number;
  transactions: readonly { consensus_timestamp: string | null }[];
  windowEnd: bigint | null | undefined;
}): string | null {
  const { transactions, config } = options;
  const full = transactions.length === options.limit;
  const cursor = full ? transactions[transactions.length - 1]?.consensus_timestamp : timestampString(options.windowEnd);
  if (cursor === null || cursor === undefined) return null;
  return nextLink({
    url: options.url,
    order: options.order,
    cursor: { timestamp: cursor },
    maxRepeated: config.query.maxRepeatedQueryParameters,
    boundValue: (_field, value) => parseTimestamp(value),
    includeHost: config.response.includeHostInLink,
  });
}
