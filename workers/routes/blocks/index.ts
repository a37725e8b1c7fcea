import { Hono } from 'hono';
import { type BlockCondition, blockByHashOrNumber, listBlocks } from '../../../db/queries/blocks.ts';
import { committedValue } from '../../../db/queries/committed-end.ts';
import type { AppEnv } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { cacheControlFor } from '../../finality/freshness.ts';
import { inclusiveUpper, isFinalPage } from '../../finality/page.ts';
import { nextLink } from '../../format/pagination.ts';
import { blockNumberParam, parseBlockHashOrNumber, parseBlockNumber } from '../../params/block-number.ts';
import { limitParam, orderParam, resolveLimit, resolveOrder } from '../../params/limit-order.ts';
import { acceptNoQuery, requestFilters } from '../../params/request-query.ts';
import { timestampParam } from '../../params/timestamp.ts';
import { jsonResponse } from '../../respond.ts';
import { formatBlock } from './format.ts';

/**
 * A block never changes once written (the ingest writes its record_file row once, with the block's rows): the
 * reference's ten minutes, final once the history is append-only (docs/adr/0045).
 */
const BLOCK_MAX_AGE = 600;

/** `/api/v1/blocks`: the list, and one block by hash or number. */
export const blockRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const config = c.get('config');
    const filters = requestFilters(c, {
      'block.number': blockNumberParam,
      limit: limitParam(c.get('maxLimit')),
      order: orderParam,
      timestamp: timestampParam,
    });
    const conditions: BlockCondition[] = [];
    for (const filter of filters) {
      if (filter.key === 'block.number')
        conditions.push({ column: 'index', operator: filter.operator, value: filter.value });
      if (filter.key === 'timestamp')
        conditions.push({ column: 'consensus_end', operator: filter.operator, value: filter.value });
    }
    const limit = resolveLimit(filters, config.response.limit.default);
    const order = resolveOrder(filters, 'desc');
    // the first of the two filters given decides the column the page walks
    const orderBy = conditions[0]?.column ?? 'consensus_end';

    const rows = await listBlocks(c.get('db'), { conditions, orderBy, order, limit });
    const blocks = rows.map(formatBlock);
    const last = blocks[blocks.length - 1];
    const next =
      last && blocks.length === limit
        ? nextLink({
            url: c.req.url,
            order,
            cursor: { 'block.number': last.number as bigint },
            maxRepeated: config.query.maxRepeatedQueryParameters,
            boundValue: (_field, value) => parseBlockNumber(value),
            includeHost: config.response.includeHostInLink,
          })
        : null;
    // Later blocks have a greater number and a greater timestamp than any committed one: either bound can close it.
    const page = { order, limit, rows: blocks.length };
    const bounded = (column: BlockCondition['column']) => inclusiveUpper(conditions.filter((x) => x.column === column));
    const final =
      isFinalPage({ ...page, upper: bounded('index'), committed: committedValue(rows[0]?.committed_block) }) ||
      isFinalPage({ ...page, upper: bounded('consensus_end'), committed: committedValue(rows[0]?.committed_end) });
    return jsonResponse({ blocks, links: { next } }, { cacheControl: cacheControlFor(c, final) });
  })
  .get('/:hashOrNumber', async (c) => {
    acceptNoQuery(c);
    const key = parseBlockHashOrNumber(c.req.param('hashOrNumber'));
    if (!key) throw ApiError.invalidParams('hashOrNumber');
    const row = await blockByHashOrNumber(c.get('db'), key);
    if (!row) throw ApiError.notFound();
    return jsonResponse(formatBlock(row), { cacheControl: cacheControlFor(c, row.append_only, BLOCK_MAX_AGE) });
  });
