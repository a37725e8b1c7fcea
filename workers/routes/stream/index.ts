import type { Context } from 'hono';
import { Hono } from 'hono';
import type { AppEnv } from '../../context.ts';
import { nearDatabase } from '../../durable/location-hint.ts';
import { ApiError } from '../../errors.ts';
import { entityIdParam } from '../../params/entity-id.ts';
import { requestFilters } from '../../params/request-query.ts';
import { pathAndQuery } from '../../request-url.ts';
import { encodeOpening, OPENING_HEADER } from '../../stream/opening.ts';
import type { Position } from '../../stream/position.ts';
import { type Subscription, streamHubName, streamKey } from '../../stream/subscription.ts';
import { checkContractIdPath, resolveContractId } from '../contracts/contract-id.ts';
import { encodedTopicId, encodingParam, isTopicIdText, isUtf8Requested } from '../topics/messages.ts';
import { resumeIndexParam, resumePosition, resumeTimestampParam, TOPIC_PARAMS, topicFilters } from './params.ts';

/**
 * Hands a validated subscription to the hub of its stream key, which upgrades the request. Parameters are checked
 * first: bad ones get the reference's 400 before any upgrade; a request that asks for no upgrade gets 426.
 */
function openStream(c: Context<AppEnv>, subscription: Subscription, resume: Position | undefined): Promise<Response> {
  if (c.req.header('upgrade')?.toLowerCase() !== 'websocket') {
    throw new ApiError(426, 'Expected a WebSocket upgrade', { headers: { upgrade: 'websocket' } });
  }
  const hub = streamHubName(streamKey(subscription));
  const namespace = c.env.STREAM_HUB;
  const stub = namespace.get(namespace.idFromName(hub), nearDatabase(c.env.DATABASE_LOCATION_HINT));
  const headers = new Headers(c.req.raw.headers);
  headers.set(OPENING_HEADER, encodeOpening({ subscription, resume }));
  return stub.fetch(new Request(`https://${hub}/`, { headers }));
}

/**
 * `/api/v1/stream/...`: WebSockets pushing, as they are ingested, the rows of a REST list (each message one element
 * of that list, as the list writes it), resumable after the last one received (docs/adr/0031-websocket-streams.md).
 */
export const streamRoutes = new Hono<AppEnv>()
  .get('/topics/:topicId/messages', (c) => {
    const config = c.get('config');
    const topicText = c.req.param('topicId');
    if (!isTopicIdText(topicText)) throw ApiError.invalidParams('topic.id');
    const filters = requestFilters(c, { encoding: encodingParam, timestamp: resumeTimestampParam });
    const utf8 = isUtf8Requested(filters, pathAndQuery(c.req.url).query, config.query.maxRepeatedQueryParameters);
    const topicId = encodedTopicId(topicText, config.common);
    return openStream(c, { kind: 'topic', topicId, utf8 }, resumePosition(filters));
  })
  .get('/blocks', (c) => {
    const filters = requestFilters(c, { timestamp: resumeTimestampParam });
    return openStream(c, { kind: 'blocks' }, resumePosition(filters));
  })
  .get('/transactions', (c) => {
    const config = c.get('config');
    const filters = requestFilters(c, { 'account.id': entityIdParam(config.common), timestamp: resumeTimestampParam });
    const accounts = filters.filter((f) => f.key === 'account.id');
    const [account] = accounts;
    if (accounts.length !== 1 || account?.operator !== 'eq' || account.value.kind !== 'num') {
      throw ApiError.invalidParams('account.id');
    }
    return openStream(c, { kind: 'account', accountId: account.value.encoded }, resumePosition(filters));
  })
  .get('/contracts/:contractId/results/logs', async (c) => {
    const config = c.get('config');
    const contractText = c.req.param('contractId');
    checkContractIdPath(contractText);
    const filters = requestFilters(c, { ...TOPIC_PARAMS, index: resumeIndexParam, timestamp: resumeTimestampParam });
    const topics = topicFilters(filters);
    const resume = resumePosition(filters);
    const contractId = await resolveContractId(c.get('db'), contractText, config.common);
    return openStream(c, { kind: 'logs', contractId, topics }, resume);
  });
