import { Hono } from 'hono';
import type { Comparison } from '../../../db/queries/comparison.ts';
import { nft, nfts, nftTransactions } from '../../../db/queries/tokens-nfts.ts';
import type { AppEnv } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { nextLink } from '../../format/pagination.ts';
import { entityIdParam } from '../../params/entity-id.ts';
import { limitParam, orderParam, resolveLimit, resolveOrder } from '../../params/limit-order.ts';
import { acceptNoQuery, requestFilters } from '../../params/request-query.ts';
import { positiveLongParam } from '../../params/scalars.ts';
import { parseTimestamp, timestampParam } from '../../params/timestamp.ts';
import { jsonResponse } from '../../respond.ts';
import { formatNft, formatNftTransaction } from './format.ts';
import { serialNumberPathParam, tokenIdPathParam } from './params.ts';

/** A token's NFTs, one NFT, and the transactions that changed an NFT. */
export const nftRoutes = new Hono<AppEnv>()
  .get('/:tokenId/nfts', async (c) => {
    const config = c.get('config');
    const tokenId = tokenIdPathParam(c.req.param('tokenId'), config);
    const maxRepeated = config.query.maxRepeatedQueryParameters;
    const filters = requestFilters(c, {
      'account.id': entityIdParam(config.common),
      limit: limitParam(c.get('maxLimit')),
      order: orderParam,
      serialnumber: positiveLongParam,
    });
    const accountIds: Comparison<bigint | null>[] = [];
    const serialNumbers: Comparison<bigint>[] = [];
    for (const filter of filters) {
      if (filter.key === 'account.id') {
        accountIds.push({
          operator: filter.operator,
          value: filter.value.kind === 'num' ? filter.value.encoded : null,
        });
      } else if (filter.key === 'serialnumber') serialNumbers.push(filter);
    }
    const limit = resolveLimit(filters, config.response.limit.default);
    const order = resolveOrder(filters, 'desc');
    const rows = await nfts(c.get('db'), { tokenId, accountIds, serialNumbers, order, limit });
    const items = rows.map(formatNft);
    const last = items[items.length - 1];
    const next =
      items.length === limit
        ? nextLink({
            url: c.req.url,
            order,
            cursor: { serialnumber: last?.serial_number ?? 0n },
            maxRepeated,
            boundValue: (_field, value) => (/^\d{1,19}$/.test(value) ? BigInt(value) : undefined),
            includeHost: config.response.includeHostInLink,
          })
        : null;
    return jsonResponse({ nfts: items, links: { next } });
  })
  .get('/:tokenId/nfts/:serialNumber', async (c) => {
    const config = c.get('config');
    acceptNoQuery(c);
    const tokenId = tokenIdPathParam(c.req.param('tokenId'), config);
    const serialNumber = serialNumberPathParam(c.req.param('serialNumber'));
    const row = await nft(c.get('db'), tokenId, serialNumber);
    if (!row) throw ApiError.notFound();
    return jsonResponse(formatNft(row));
  })
  .get('/:tokenId/nfts/:serialNumber/transactions', async (c) => {
    const config = c.get('config');
    const tokenId = tokenIdPathParam(c.req.param('tokenId'), config);
    const serialNumber = serialNumberPathParam(c.req.param('serialNumber'));
    const maxRepeated = config.query.maxRepeatedQueryParameters;
    const filters = requestFilters(c, {
      limit: limitParam(c.get('maxLimit')),
      order: orderParam,
      timestamp: timestampParam,
    });
    const timestamps = filters.flatMap((filter) => (filter.key === 'timestamp' ? [filter] : []));
    const limit = resolveLimit(filters, config.response.limit.default);
    const order = resolveOrder(filters, 'desc');
    const rows = await nftTransactions(c.get('db'), { tokenId, serialNumber, timestamps, order, limit });
    const items = rows.map(formatNftTransaction);
    const last = items[items.length - 1];
    const next =
      last && items.length === limit
        ? nextLink({
            url: c.req.url,
            order,
            cursor: { timestamp: last.consensus_timestamp as string },
            maxRepeated,
            boundValue: (_field, value) => parseTimestamp(value),
            includeHost: config.response.includeHostInLink,
          })
        : null;
    // Transactions without the NFT itself (or its creation): the history is only partly known.
    const status = rows.length > 0 && !rows[0]?.nft_created ? 206 : 200;
    return jsonResponse({ transactions: items, links: { next } }, { status });
  });
