import { ApiError } from '../../../../errors.ts';
import { encodeEntityId, MAX_NUM, MAX_REALM, MAX_SHARD } from '../../../../params/entity-id.ts';
import type { FeeResult } from '../fee-result.ts';
import type { ServiceFee, SimpleFeeSchedule } from '../schedule.ts';
import { type Fields, varintField } from '../wire.ts';

/** What STATE mode reads of the ledger (the mirror's tables); INTRINSIC mode reads nothing. */
export interface LedgerState {
  /** Whether the topic exists and has custom fees. */
  topicHasCustomFees(topicId: bigint): Promise<boolean>;
  /** The tokens among `tokenIds` that exist, by id. */
  tokens(tokenIds: readonly bigint[]): Promise<ReadonlyMap<bigint, { fungible: boolean; hasCustomFees: boolean }>>;
}

export interface ServiceContext {
  schedule: SimpleFeeSchedule;
  /** The schedule's entry for the transaction's type. */
  entry: ServiceFee;
  result: FeeResult;
  /** Present in STATE mode only. */
  state: LedgerState | undefined;
}

/** Counts a transaction's service extras into the result (the base fee is already set). */
export type ServiceCalculator = (op: Fields, context: ServiceContext) => void | Promise<void>;

/** A schedule that prices an extra it does not list, or lists one it gives no price: a broken 0.0.113. */
export class ScheduleError extends Error {
  override readonly name = 'ScheduleError';
}

/** Charges `used` units of the extra, beyond what the type's entry includes; the entry must list the extra. */
export function addExtra(context: ServiceContext, name: string, used: bigint | number): void {
  const reference = context.entry.extras.find((extra) => extra.name === name);
  if (!reference) throw new ScheduleError(`Extra not defined ${name}`);
  const price = context.schedule.extraFees.get(name);
  if (price === undefined) throw new ScheduleError(`Extra fee not found: ${name}`);
  context.result.addServiceExtra(name, price, BigInt(used), reference.included);
}

/** A transaction type whose fee is its base fee alone. */
export const baseOnly: ServiceCalculator = () => {};

/** Turns a broken schedule into the reference's hidden 500. */
export function scheduleFailure(error: ScheduleError): ApiError {
  return ApiError.internal(error);
}

// TopicID / TokenID / AccountID: shardNum, realmNum, then the number
const SHARD = 1;
const REALM = 2;
const NUM = 3;

/** The encoded id of a TopicID or TokenID message; undefined for one no entity can have. */
export function entityId(id: Fields): bigint | undefined {
  const shard = BigInt.asIntN(64, varintField(id, SHARD));
  const realm = BigInt.asIntN(64, varintField(id, REALM));
  const num = BigInt.asIntN(64, varintField(id, NUM));
  if (shard < 0n || realm < 0n || num < 0n || shard > MAX_SHARD || realm > MAX_REALM || num > MAX_NUM) return undefined;
  return encodeEntityId({ shard, realm, num });
}
