/**
 * Entity numbers of the simulated network (shard 0, realm 0) and their protobuf and EVM forms. The network
 * hands out one number sequence for every entity kind, as the real one does.
 */

export const SHARD = 0n;
export const REALM = 0n;

/** Well-known system accounts and files. */
export const TREASURY = 2n;
export const FEE_COLLECTOR = 98n;
export const STAKING_REWARD_ACCOUNT = 800n;
export const NODE_REWARD_ACCOUNT = 801n;
export const ADDRESS_BOOK_FILE = 102n;
export const FEE_SCHEDULE_FILE = 111n;
export const EXCHANGE_RATE_FILE = 112n;
/** The first number handed to a user entity. */
export const FIRST_USER_ENTITY = 1001n;

/** Node n's account: 0.0.3 for node 0, 0.0.4 for node 1, … */
export function nodeAccount(nodeId: number): bigint {
  return BigInt(nodeId + 3);
}

export function idString(num: bigint): string {
  return `${SHARD}.${REALM}.${num}`;
}

/** An int64 for protobufjs: a number while exact (fast to encode), a decimal string beyond 2^53. */
export function i64(value: bigint): number | string {
  return value >= -9_007_199_254_740_991n && value <= 9_007_199_254_740_991n ? Number(value) : String(value);
}

/**
 * protobuf AccountID / ContractID / … as nodes write them: proto3 default values (shard 0, realm 0, and the
 * number of 0.0.0) are left off the wire, which protobufjs would otherwise write.
 */
const idPb = (field: string) => (num: bigint) => (num === 0n ? {} : { [field]: i64(num) });
export const accountPb = idPb('accountNum');
export const tokenPb = idPb('tokenNum');
export const topicPb = idPb('topicNum');
export const contractPb = idPb('contractNum');
export const schedulePb = idPb('scheduleNum');
export const filePb = idPb('fileNum');

/** protobuf Timestamp of a nanosecond instant. */
export function timestampPb(ns: bigint): { seconds: number | string; nanos?: number } {
  const nanos = Number(ns % 1_000_000_000n);
  return nanos === 0 ? { seconds: i64(ns / 1_000_000_000n) } : { seconds: i64(ns / 1_000_000_000n), nanos };
}

/** The "long-zero" EVM address of an entity: 12 zero bytes then the 8-byte big-endian number. */
export function longZeroAddress(num: bigint): Uint8Array {
  const out = new Uint8Array(20);
  new DataView(out.buffer).setBigUint64(12, num);
  return out;
}

export function numOfLongZero(address: Uint8Array): bigint | undefined {
  for (let i = 0; i < 12; i++) if (address[i] !== 0) return undefined;
  return new DataView(address.buffer, address.byteOffset, 20).getBigUint64(12);
}
