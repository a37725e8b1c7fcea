import { fnv1a32 } from '../durable/rate-limiter-shard.ts';

/**
 * What one WebSocket follows. A stream key names the rows; a topic subscription picks how messages are written
 * (`encoding=utf-8`: text), and a logs subscription narrows its contract's logs by its own topic filters (per topic position, the values of which one must match, as lowercase
 * hex without leading zero bytes: how `/contracts/{id}/results/logs?topic0=` compares them).
 */
export type Subscription =
  | { readonly kind: 'topic'; readonly topicId: bigint; readonly utf8: boolean }
  | { readonly kind: 'blocks' }
  | { readonly kind: 'account'; readonly accountId: bigint }
  | { readonly kind: 'logs'; readonly contractId: bigint; readonly topics: readonly (readonly string[])[] };

/** The rows a stream key names: the tail reads each kind once per round for all keys of that kind. */
export type StreamKind = Subscription['kind'];

/** `blocks`, `topic:<id>`, `account:<id>`, `logs:<id>` (encoded entity ids). */
export function streamKey(subscription: Subscription): string {
  switch (subscription.kind) {
    case 'blocks':
      return 'blocks';
    case 'topic':
      return `topic:${subscription.topicId}`;
    case 'account':
      return `account:${subscription.accountId}`;
    case 'logs':
      return `logs:${subscription.contractId}`;
  }
}

/** The kind and entity id of a stream key (`streamKey`'s inverse); the id is 0 for `blocks`. */
export function parseStreamKey(key: string): { kind: StreamKind; id: bigint } {
  if (key === 'blocks') return { kind: 'blocks', id: 0n };
  const [kind, id] = key.split(':');
  if ((kind === 'topic' || kind === 'account' || kind === 'logs') && id !== undefined && /^\d+$/.test(id)) {
    return { kind, id: BigInt(id) };
  }
  throw new Error(`not a stream key: ${key}`);
}

/** Fixed: the sockets of one stream key must always meet in one hub. */
const STREAM_HUB_SHARDS = 16;

/** The StreamHub object that holds every socket of `key`. */
export const streamHubName = (key: string): string => `hub-${fnv1a32(key) % STREAM_HUB_SHARDS}`;

/** The one StreamTail object. */
export const STREAM_TAIL_NAME = 'tail';
