/**
 * Entity ids and timestamps as the schema stores them: an id packs shard (10 bits), realm (16 bits) and num
 * (38 bits) into one int64; a timestamp is nanoseconds since the epoch as int64.
 */

const NUM_BITS = 38n;
const REALM_BITS = 16n;
const NUM_MASK = (1n << NUM_BITS) - 1n;
const REALM_MASK = (1n << REALM_BITS) - 1n;
const SHARD_MASK = (1n << 10n) - 1n;
const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);

export function encodeEntityId(shard: bigint, realm: bigint, num: bigint): bigint {
  if (num < 0n || num > NUM_MASK || realm < 0n || realm > REALM_MASK || shard < 0n || shard > SHARD_MASK) {
    throw new RangeError(`invalid entity id ${shard}.${realm}.${num}`);
  }
  return (shard << (NUM_BITS + REALM_BITS)) | (realm << NUM_BITS) | num;
}

export function decodeEntityId(id: bigint): { shard: bigint; realm: bigint; num: bigint } {
  return { shard: id >> (NUM_BITS + REALM_BITS), realm: (id >> NUM_BITS) & REALM_MASK, num: id & NUM_MASK };
}

export function entityIdString(id: bigint): string {
  const { shard, realm, num } = decodeEntityId(id);
  return `${shard}.${realm}.${num}`;
}

/** A plain AccountID / TokenID / FileID / … (`{shardNum, realmNum, <kind>Num}`) as an encoded id; 0 when absent. */
export function idOf(message: unknown, numField: string): bigint {
  if (!message || typeof message !== 'object') return 0n;
  const m = message as Record<string, unknown>;
  const num = m[numField];
  if (typeof num !== 'bigint') return 0n;
  return encodeEntityId(asBig(m.shardNum), asBig(m.realmNum), num);
}

function asBig(value: unknown): bigint {
  return typeof value === 'bigint' ? value : 0n;
}

/** `{seconds, nanos}` as nanoseconds, clamped to int64 like the reference. */
export function timestampNanos(message: unknown): bigint {
  if (!message || typeof message !== 'object') return 0n;
  const m = message as { seconds?: bigint; nanos?: number };
  const value = (m.seconds ?? 0n) * 1_000_000_000n + BigInt(m.nanos ?? 0);
  return value > INT64_MAX ? INT64_MAX : value < INT64_MIN ? INT64_MIN : value;
}

/** The long-zero EVM address of an entity: 12 zero bytes then the 8-byte big-endian num. */
export function longZeroAddress(id: bigint): Uint8Array {
  const out = new Uint8Array(20);
  let num = decodeEntityId(id).num;
  for (let i = 19; i >= 12; i--) {
    out[i] = Number(num & 0xffn);
    num >>= 8n;
  }
  return out;
}
