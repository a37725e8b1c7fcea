import type { Context } from 'hono';
import type { AppEnv } from '../../context.ts';
import { nextLink } from '../../format/pagination.ts';
import { encodedEntityIdBound } from '../../params/entity-id.ts';
import type { Order } from '../../params/limit-order.ts';

/**
 * `links.next` of a page listed by account id (`/accounts`, `/balances`): after the last account of a full page,
 * null after a short one.
 */
export function accountIdPageLink(
  c: Context<AppEnv>,
  page: { items: readonly { account: string | null }[]; limit: number; order: Order; maxRepeated: number },
): string | null {
  const config = c.get('config');
  const last = page.items[page.items.length - 1]?.account;
  if (page.items.length !== page.limit || !last) return null;
  return nextLink({
    url: c.req.url,
    order: page.order,
    cursor: { 'account.id': last },
    maxRepeated: page.maxRepeated,
    boundValue: (_field, value) => encodedEntityIdBound(value, config.common),
    includeHost: config.response.includeHostInLink,
  });
}
