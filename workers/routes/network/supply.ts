import { Hono } from 'hono';
import type { Database } from '../../../db/client.ts';
import {
  type AccountRange,
  currentUnreleasedSupply,
  historicalUnreleasedSupply,
} from '../../../db/queries/network-supply.ts';
import type { AppEnv } from '../../context.ts';
import { timestampString } from '../../format/values.ts';
import { encodeEntityId } from '../../params/entity-id.ts';
import { requestParam } from '../../params/java/binding.ts';
import { type Bound, timestampBound } from '../../params/java/bound.ts';
import { javaBadRequest, javaNotFound } from '../../params/java/errors.ts';
import { lenientEnum, wrapLong } from '../../params/java/numbers.ts';
import { servletParams } from '../../params/java/servlet-query.ts';
import { pathAndQuery } from '../../request-url.ts';
import { jsonResponse, textResponse } from '../../respond.ts';
import { checkTimestampCount, NETWORK_MAX_AGE, setNetworkCacheControl, timestampRequestParam } from './common.ts';

/** 50 billion hbars in tinybars. */
const TOTAL_SUPPLY = 5_000_000_000_000_000_000n;
const TINYBARS_PER_HBAR_DIGITS = 8;
/**
 * The accounts (by number) that hold the hbars not yet released into circulation: the reference's default
 * `hiero.mirror.restJava.network.unreleasedSupplyAccounts`.
 */
const UNRELEASED_SUPPLY_ACCOUNTS: readonly [number, number][] = [
  [2, 2],
  [42, 42],
  [44, 71],
  [73, 87],
  [99, 100],
  [200, 349],
  [400, 750],
];

/** The first instant (ns) of the month before the one that contains `ns` (UTC). */
function startOfPreviousMonth(ns: bigint): bigint {
  // floor division: an instant before 1970 belongs to the millisecond before it
  const ms = ns / 1_000_000n - (ns % 1_000_000n < 0n ? 1n : 0n);
  const date = new Date(Number(ms));
  const start = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - 1, 1);
  return BigInt(start) * 1_000_000n;
}

/** Unreleased supply and its timestamp: from current balances, or from balance snapshots within the bound. */
async function unreleasedSupply(db: Database, ranges: readonly AccountRange[], bound: Bound) {
  if (bound.empty) return currentUnreleasedSupply(db, ranges);
  if (bound.lower > bound.upper) throw javaBadRequest('Invalid range provided for timestamp');
  // snapshots are taken at least monthly: no need to look further back than the month before the upper bound
  const earliest = startOfPreviousMonth(bound.upper);
  const lower = bound.lower > earliest ? bound.lower : earliest;
  return historicalUnreleasedSupply(db, ranges, lower, bound.upper);
}

/** Tinybars as hbars with eight decimals, by moving the decimal point in the digits (as the reference does). */
function hbars(tinybars: bigint): string {
  const text = tinybars.toString();
  if (text.length <= TINYBARS_PER_HBAR_DIGITS) {
    const digits = tinybars < 0n ? `-${(-tinybars).toString().padStart(TINYBARS_PER_HBAR_DIGITS - 1, '0')}` : text;
    return `0.${digits.padStart(TINYBARS_PER_HBAR_DIGITS, '0')}`;
  }
  return `${text.slice(0, -TINYBARS_PER_HBAR_DIGITS)}.${text.slice(-TINYBARS_PER_HBAR_DIGITS)}`;
}

const SUPPLY_TYPES = ['CIRCULATING', 'TOTALCOINS'] as const;

export const supplyRoutes = new Hono<AppEnv>().get('/supply', async (c) => {
  setNetworkCacheControl(c);
  const params = servletParams(pathAndQuery(c.req.url).query);
  const timestamps = timestampRequestParam(params);
  const supplyType = requestParam(params, 'q', {
    convert: (arg) => lenientEnum(typeof arg === 'string' ? arg : (arg[0] as string), SUPPLY_TYPES),
  });
  checkTimestampCount(timestamps);

  const { shard, realm } = c.get('config').common;
  const ranges = UNRELEASED_SUPPLY_ACCOUNTS.map(
    ([from, to]): AccountRange => [
      encodeEntityId({ shard: BigInt(shard), realm: BigInt(realm), num: BigInt(from) }),
      encodeEntityId({ shard: BigInt(shard), realm: BigInt(realm), num: BigInt(to) }),
    ],
  );
  const row = await unreleasedSupply(c.get('db'), ranges, timestampBound(timestamps));
  const timestamp = BigInt(row.consensus_timestamp);
  if (timestamp === 0n) throw javaNotFound('Network supply not found');
  const released = wrapLong(TOTAL_SUPPLY - BigInt(row.unreleased_supply));

  if (supplyType) {
    const text = hbars(supplyType === 'TOTALCOINS' ? TOTAL_SUPPLY : released);
    return textResponse(c, text);
  }
  return jsonResponse(
    {
      released_supply: released.toString(),
      timestamp: timestampString(timestamp),
      total_supply: TOTAL_SUPPLY.toString(),
    },
    { maxAge: NETWORK_MAX_AGE },
  );
});
