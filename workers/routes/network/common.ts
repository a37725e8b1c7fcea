import type { Context } from 'hono';
import { encodeEntityId } from '../../params/entity-id.ts';
import { commaSeparated, requestParam } from '../../params/java/binding.ts';
import { javaBadRequest } from '../../params/java/errors.ts';
import type { RangeParam } from '../../params/java/range.ts';
import { timestampParam } from '../../params/java/range.ts';
import type { ServletParams } from '../../params/java/servlet-query.ts';

/** Every `/network/*` answer may be cached for a minute; the reference sets it before reading any parameter. */
export const NETWORK_MAX_AGE = 60;

export function setNetworkCacheControl(c: Context): void {
  c.header('cache-control', `public, max-age=${NETWORK_MAX_AGE}`);
}

/** The encoded id of system file `num` (0.0.102 and so on) in the network's shard and realm. */
export const systemFileId = (network: { shard: number; realm: number }, num: number): bigint =>
  encodeEntityId({ shard: BigInt(network.shard), realm: BigInt(network.realm), num: BigInt(num) });

/** `shard.realm.num` of an encoded id built by `systemFileId`. */
export const systemFileName = (network: { shard: number; realm: number }, num: number): string =>
  `${network.shard}.${network.realm}.${num}`;

/**
 * The `timestamp` parameter of the system file and supply routes (a `@RequestParam` array of at most two): one
 * value may hold several, comma-separated.
 */
export function timestampRequestParam(params: ServletParams): RangeParam[] {
  return (
    requestParam(params, 'timestamp', {
      convert: (arg) => {
        const texts = typeof arg === 'string' ? commaSeparated(arg) : arg;
        const parsed = texts.map(timestampParam);
        return parsed.every((param) => param !== undefined) ? (parsed as RangeParam[]) : undefined;
      },
    }) ?? []
  );
}

/** The `@Size(max = 2)` constraint on `timestamp`, checked once every parameter has converted. */
export function checkTimestampCount(timestamps: readonly RangeParam[]): void {
  if (timestamps.length > 2) throw javaBadRequest('timestamp size must be between 0 and 2');
}
