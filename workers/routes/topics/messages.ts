import { Hono } from 'hono';
import { committedValue } from '../../../db/queries/committed-end.ts';
import type { Comparison } from '../../../db/queries/comparison.ts';
import { topicMessageBySequence, topicMessageByTimestamp, topicMessages } from '../../../db/queries/topics-messages.ts';
import type { AppEnv } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { cacheControlFor } from '../../finality/freshness.ts';
import { inclusiveUpper, isFinalPage } from '../../finality/page.ts';
import { nextLink } from '../../format/pagination.ts';
import { isEntityIdText, requireEntityId } from '../../params/entity-id.ts';
import type { Filter, ParamParser } from '../../params/filters.ts';
import { limitParam, orderParam, resolveLimit, resolveOrder } from '../../params/limit-order.ts';
import { parseQuery } from '../../params/query.ts';
import { parseQueryString } from '../../params/query-string.ts';
import { acceptNoQuery } from '../../params/request-query.ts';
import { parsePositiveLong, positiveLongParam } from '../../params/scalars.ts';
import { parseTimestamp, timestampParam } from '../../params/timestamp.ts';
import { pathAndQuery } from '../../request-url.ts';
import { jsonResponse } from '../../respond.ts';
import { rangeOfFilters } from './lookup-range.ts';
import { formatTopicMessage, isUtf8Encoding } from './message-format.ts';

/**
 * A message, once its sequence number or timestamp is known, never changes (written once, with its transaction):
 * the reference's ten minutes, final once the history is append-only (docs/adr/0045).
 */
const MESSAGE_MAX_AGE = 600;

/** `encoding`: `base64`, `utf-8` or `utf8`, any case, under any operator. */
export const encodingParam: ParamParser<string> = (value) => {
  const encoding = value.toLowerCase();
  return encoding === 'base64' || /^utf-?8$/.test(encoding) ? encoding : undefined;
};

/** A topic id in a path: `shard.realm.num`, `realm.num`, `num` or an encoded id; no EVM address. */
export const isTopicIdText = (text: string) => isEntityIdText(text, { allowEvmAddress: false });

/**
 * `/topics/{topicId}/messages`, `/topics/{topicId}/messages/{sequenceNumber}` and
 * `/topics/messages/{consensusTimestamp}`, registered in the reference's order (it decides `/topics/messages/x`).
 */
export const topicMessageRoutes = new Hono<AppEnv>()
  .get('/:topicId/messages', async (c) => {
    const config = c.get('config');
    const topicText = c.req.param('topicId');
    if (!isTopicIdText(topicText)) throw ApiError.invalidParams('topic.id');
    const search = pathAndQuery(c.req.url).query;
    const maxRepeated = config.query.maxRepeatedQueryParameters;
    const filters = parseQuery(
      search,
      {
        encoding: encodingParam,
        limit: limitParam(c.get('maxLimit')),
        order: orderParam,
        sequencenumber: positiveLongParam,
        timestamp: timestampParam,
      },
      { maxRepeated },
    );
    const utf8Text = isUtf8Requested(filters, search, maxRepeated);
    const topicId = encodedTopicId(topicText, config.common);
    const limit = resolveLimit(filters, config.response.limit.default);
    const order = resolveOrder(filters, 'asc');
    const sequenceNumbers: Comparison<bigint>[] = [];
    const timestamps: Comparison<bigint>[] = [];
    for (const filter of filters) {
      if (filter.key === 'sequencenumber') sequenceNumbers.push(filter);
      else if (filter.key === 'timestamp') timestamps.push(filter);
    }

    let lookup: Parameters<typeof topicMessages>[1]['lookup'];
    if (config.query.topicMessageLookup) {
      const sequenceNumber = rangeOfFilters('sequencenumber', sequenceNumbers, 1n);
      const timestamp = rangeOfFilters('timestamp', timestamps, 0n);
      if (!sequenceNumber || !timestamp) return jsonResponse({ messages: [], links: { next: null } });
      lookup = { sequenceNumber, timestamp };
    }
    const rows = await topicMessages(c.get('db'), { topicId, sequenceNumbers, timestamps, order, limit, lookup });

    const messages = rows.map((row) => formatTopicMessage(row, utf8Text));

    const last = messages[messages.length - 1];
    const next =
      last && messages.length === limit
        ? nextLink({
            url: c.req.url,
            order,
            cursor: { timestamp: last.consensus_timestamp as string },
            maxRepeated,
            boundValue: (_field, value) => parseTimestamp(value),
            includeHost: config.response.includeHostInLink,
          })
        : null;
    // A later message has a greater timestamp and sequence number than any committed one; a sequence number bound
    // closes the page once a message at or beyond it is in the page (the topic's numbers have no gaps).
    const committed = committedValue(rows[0]?.committed_end);
    const page = { order, limit, rows: rows.length };
    const lastNumber = rows.reduce((most, row) => later(most, BigInt(row.sequence_number)), -1n);
    const final =
      !config.query.topicMessageLookup &&
      (isFinalPage({ ...page, upper: inclusiveUpper(timestamps), committed }) ||
        isFinalPage({
          ...page,
          upper: inclusiveUpper(sequenceNumbers),
          committed: committed === null ? null : lastNumber,
        }));
    return jsonResponse({ messages, links: { next } }, { cacheControl: cacheControlFor(c, final) });
  })
  .get('/:topicId/messages/:sequenceNumber', async (c) => {
    const config = c.get('config');
    acceptNoQuery(c);
    const topicText = c.req.param('topicId');
    const sequenceNumber = parsePositiveLong(c.req.param('sequenceNumber'));
    const invalid = [
      ...(isTopicIdText(topicText) ? [] : ['topic.id']),
      ...(sequenceNumber === undefined ? ['sequencenumber'] : []),
    ];
    if (invalid.length > 0 || sequenceNumber === undefined) throw ApiError.invalidParams(invalid);
    const topicId = encodedTopicId(topicText, config.common);
    const row = await topicMessageBySequence(c.get('db'), {
      topicId,
      sequenceNumber,
      useLookup: config.query.topicMessageLookup,
    });
    if (!row) throw ApiError.notFound();
    const final = committedValue(row.committed_end) !== null;
    return jsonResponse(formatTopicMessage(row), { cacheControl: cacheControlFor(c, final, MESSAGE_MAX_AGE) });
  })
  .get('/messages/:consensusTimestamp', async (c) => {
    acceptNoQuery(c);
    const timestamp = parseTimestamp(c.req.param('consensusTimestamp'));
    if (timestamp === undefined) throw ApiError.invalidParams('consensus_timestamp');
    const row = await topicMessageByTimestamp(c.get('db'), timestamp);
    if (!row) throw ApiError.notFound();
    const final = committedValue(row.committed_end) !== null;
    return jsonResponse(formatTopicMessage(row), { cacheControl: cacheControlFor(c, final, MESSAGE_MAX_AGE) });
  });

const later = (a: bigint, b: bigint) => (a > b ? a : b);

/**
 * Whether messages are written as text. The reference reads the raw `encoding` value, so `encoding=eq:utf-8` is
 * base64; it fails with a 500 on a repeated one, a 400 here.
 */
export function isUtf8Requested(filters: readonly Filter[], search: string, maxRepeated: number): boolean {
  if (filters.filter((filter) => filter.key === 'encoding').length > 1) throw ApiError.invalidParams('encoding');
  const encoding = parseQueryString(search, maxRepeated).find((param) => param.key === 'encoding')?.values[0];
  return typeof encoding === 'string' && isUtf8Encoding(encoding);
}

export function encodedTopicId(text: string, common: { shard: number; realm: number }): bigint {
  const id = requireEntityId(text, { ...common, allowEvmAddress: false });
  if (id.kind !== 'num') throw ApiError.invalidParams('topic.id');
  return id.encoded;
}
