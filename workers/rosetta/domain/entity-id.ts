import { encodeEntityId, MAX_NUM, MAX_REALM, MAX_SHARD } from '../../params/entity-id.ts';

/** An entity id as Rosetta uses it: its parts and its encoded form (the database's `id`). */
export interface AccountNum {
  readonly shard: bigint;
  readonly realm: bigint;
  readonly num: bigint;
  readonly encoded: bigint;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Go's `strconv.ParseInt(text, 10, 64)`: an optional sign and decimal digits, within int64. */
export function parseGoInt64(text: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(text)) return undefined;
  const value = BigInt(text);
  return value < INT64_MIN || value > INT64_MAX ? undefined : value;
}

/** The entity with these parts, when each is within what the encoding holds. */
export function entityOf(shard: bigint, realm: bigint, num: bigint): AccountNum | undefined {
  if (shard < 0n || shard > MAX_SHARD || realm < 0n || realm > MAX_REALM || num < 0n || num > MAX_NUM) return undefined;
  return { shard, realm, num, encoded: encodeEntityId({ shard, realm, num }) };
}

/** The entity of an encoded id (the database's `id` column). */
export function entityOfEncoded(encoded: bigint): AccountNum {
  return {
    shard: (encoded >> 54n) & MAX_SHARD,
    realm: (encoded >> 38n) & MAX_REALM,
    num: encoded & MAX_NUM,
    encoded,
  };
}

/** `shard.realm.num`, each part as Go's ParseInt reads it (`+1` and `007` included), as the reference parses ids. */
export function parseEntityIdText(text: string): AccountNum | undefined {
  const parts = text.split('.');
  if (parts.length !== 3) return undefined;
  const [shard, realm, num] = parts.map(parseGoInt64);
  if (shard === undefined || realm === undefined || num === undefined) return undefined;
  return entityOf(shard, realm, num);
}

export const entityIdText = (id: AccountNum): string => `${id.shard}.${id.realm}.${id.num}`;
