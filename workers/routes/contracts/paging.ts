import type { Context } from 'hono';
import type { AppEnv } from '../../context.ts';
import { type CursorValue, nextLink } from '../../format/pagination.ts';
import { encodedEntityIdBound } from '../../params/entity-id.ts';
import type { Order } from '../../params/limit-order.ts';
import { parseTimestamp } from '../../params/timestamp.ts';

/** The numeric value of a cursor bound as the reference compares it to spot an empty range. */
function boundValue(field: string, value: string): bigint | undefined {
  switch (field) {
    case 'timestamp':
      return parseTimestamp(value);
    case 'contract.id': {
      return encodedEntityIdBound(value);
    }
    case 'slot': {
      const digits = value.startsWith('0x') ? value.slice(2) : value;
      return /^[0-9a-fA-F]+$/.test(digits) ? BigInt(`0x${digits}`) : undefined;
    }
    default:
      return /^-?\d+$/.test(value) ? BigInt(value) : undefined;
  }
}

/** `links.next` of a contract route: the request repeated with the last item's cursor values. */
export function contractsNextLink(
  c: Context<AppEnv>,
  order: Order,
  cursor: Readonly<Record<string, CursorValue>>,
): string | null {
  const config = c.get('config');
  return nextLink({
    url: c.req.url,
    order,
    cursor,
    maxRepeated: config.query.maxRepeatedQueryParameters,
    boundValue,
    includeHost: config.response.includeHostInLink,
  });
}
