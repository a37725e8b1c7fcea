/**
 * What a family module gets for one record item: the item, the file's rows to add to, and small helpers
 * for the ids and timestamps every module converts.
 */
import { encodeEntityId, idOf, timestampNanos } from '../decode/ids.ts';
import type { RecordItem } from '../decode/record-item.ts';
import type { PbEntityId } from '../decode/types.ts';
import type { FileRows } from './file-rows.ts';
import type { SidecarFacts } from './sidecar.ts';

export interface ItemContext {
  readonly item: RecordItem;
  readonly rows: FileRows;
  /** The transaction row of this item, for modules that amend it (nft_transfer, entity_id). */
  readonly transaction: Record<string, unknown>;
  /** HAPI version of the file, for rules that changed between versions. */
  readonly hapiMinor: number;
  /** The file's sidecar records, summed up per transaction (gas consumed, failed init code). */
  readonly sidecars?: ReadonlyMap<bigint, SidecarFacts>;
  /** The item this child record belongs to (found as the importer's RecordItem.parseParent finds it). */
  readonly parent?: RecordItem;
}

export const accountId = (id: PbEntityId | undefined): bigint => idOf(id, 'accountNum');
export const tokenId = (id: PbEntityId | undefined): bigint => idOf(id, 'tokenNum');
export const fileId = (id: PbEntityId | undefined): bigint => idOf(id, 'fileNum');
export const topicId = (id: PbEntityId | undefined): bigint => idOf(id, 'topicNum');
export const contractId = (id: PbEntityId | undefined): bigint => idOf(id, 'contractNum');
export const scheduleId = (id: PbEntityId | undefined): bigint => idOf(id, 'scheduleNum');

/**
 * A ContractID that may name the contract by EVM address: a long-zero address (12 zero bytes, then the num) is the
 * id (DomainUtils.fromEvmAddress); any other address needs the database and is 0 here.
 */
export function contractIdOrAddress(id: PbEntityId | undefined): bigint {
  const address = id?.evm_address;
  if (address?.length !== 20 || address.subarray(0, 12).some((byte) => byte !== 0)) return contractId(id);
  const num = BigInt(`0x${Buffer.from(address.subarray(12)).toString('hex')}`);
  try {
    return encodeEntityId(id?.shardNum ?? 0n, id?.realmNum ?? 0n, num);
  } catch {
    return 0n;
  }
}
export const nanos = timestampNanos;

/** Null for the empty id 0.0.0, which the schema stores as NULL. */
export function nullable(id: bigint): bigint | null {
  return id === 0n ? null : id;
}

/** shard/realm/num columns of an encoded id. */
export function idParts(id: bigint): { shard: bigint; realm: bigint; num: bigint } {
  return { shard: id >> 54n, realm: (id >> 38n) & 0xffffn, num: id & ((1n << 38n) - 1n) };
}

export function entityRow(id: bigint): { id: bigint; shard: bigint; realm: bigint; num: bigint } {
  return { id, ...idParts(id) };
}

export { encodeEntityId };

/** The service body of an item, typed by the caller (the decoder guarantees its shape). */
export function serviceBody<T>(ctx: Pick<ItemContext, 'item'>): T {
  const name = ctx.item.bodyName;
  return (name ? ctx.item.body[name] : undefined) as T;
}

/** `{seconds}` Duration as bigint seconds, undefined when absent. */
export function durationSeconds(d: unknown): bigint | undefined {
  return (d as { seconds?: bigint } | undefined)?.seconds;
}

/**
 * The entity columns an update body's renewal fields set (auto-renew account and period, expiration): only those
 * the body carries, so the update leaves the others as they were.
 */
export function renewalUpdate(fields: {
  autoRenewAccount?: PbEntityId;
  autoRenewPeriod?: unknown;
  expiration?: unknown;
}): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  if (fields.autoRenewAccount) columns.auto_renew_account_id = accountId(fields.autoRenewAccount);
  if (fields.autoRenewPeriod) columns.auto_renew_period = durationSeconds(fields.autoRenewPeriod) ?? null;
  if (fields.expiration) columns.expiration_timestamp = nanos(fields.expiration);
  return columns;
}
