/**
 * The end of a ScheduleCreate made by a system contract call, after its own checks (ScheduleCreateHandler.handle): a
 * schedule identical to one made before, in the run or in the ledger, answers IDENTICAL_SCHEDULE_ALREADY_CREATED with
 * that schedule's address; the scheduled body's required keys are looked up (a failed lookup answers its status);
 * the schedule takes the run's next entity number, its admin key, the schedule's redirect proxy as the code at its
 * address, and the creating call's keys as its first signatories (hss-schedule-sign.ts), which execute it at once
 * when they complete a schedule that does not wait for its expiry.
 */
import { Address } from '@ethereumjs/util';
import { redirectBytecode } from '../../../common/redirect-bytecode.ts';
import { encodeEntityId } from '../../params/entity-id.ts';
import { longZeroAddress } from '../addresses.ts';
import type { EvmEntity } from '../types.ts';
import { ZERO_ADDRESS } from './addresses.ts';
import { entityNumbersOf } from './frames.ts';
import { authorizingKeys, settleCreated } from './hss-schedule-sign.ts';
import type { HtsCall } from './hts-context.ts';
import type { ResponseCodeName } from './results.ts';
import { requiredKeys } from './schedule-keys.ts';
import type { CreatedSchedule } from './token-ledger.ts';

export const NS_PER_SECOND = 1_000_000_000n;

export interface Outcome {
  readonly status: ResponseCodeName;
  /** The schedule's address; the zero address when none was made. */
  readonly schedule: Uint8Array;
}

export interface NewSchedule extends Pick<CreatedSchedule, 'payer' | 'waitForExpiry' | 'body'> {
  readonly adminKey: Uint8Array | undefined;
  readonly expirySecond: bigint;
  /** What makes two schedules of the run identical to the node (ScheduleStoreUtility.calculateBytesHash). */
  readonly identity: string;
  /** The id of a schedule of the ledger identical to this one, if the kind is compared with the ledger's. */
  readonly inLedger?: () => Promise<bigint | undefined>;
}

/** The ScheduleCreate's outcome; undefined when it would execute a schedule of a kind not executed here. */
export async function storeSchedule(call: HtsCall, scheduled: NewSchedule): Promise<Outcome | undefined> {
  const { adminKey, expirySecond, identity, inLedger, ...held } = scheduled;
  const duplicate = call.tokens.identicalSchedule(identity) ?? (await inLedger?.());
  if (duplicate !== undefined) {
    return { status: 'IDENTICAL_SCHEDULE_ALREADY_CREATED', schedule: longZeroAddress(duplicate) };
  }
  const required = await requiredKeys(call, held.payer, held.body);
  if (typeof required === 'string') return { status: required, schedule: ZERO_ADDRESS };
  const { shard, realm } = call.reader.settings;
  const num = (await entityNumbersOf(call.evm)).use();
  const id = encodeEntityId({ shard, realm, num });
  const expirationTime = expirySecond * NS_PER_SECOND;
  const entity: EvmEntity = {
    id,
    type: 'SCHEDULE',
    evmAddress: undefined,
    alias: undefined,
    key: adminKey,
    deleted: false,
    balance: 0n,
    ethereumNonce: 0n,
    createdTimestamp: call.reader.block.consensusStart,
    expirationTimestamp: expirationTime,
    autoRenewPeriod: undefined,
    autoRenewAccountId: undefined,
    maxAutomaticTokenAssociations: 0,
    receiverSigRequired: false,
    memo: '',
    delegationAddress: undefined,
  };
  call.tokens.putCreatedSchedule({ entity, expirationTime, ...held }, identity);
  const scheduleAddress = longZeroAddress(id);
  // A schedule's address answers through its redirect proxy (HIP-1215 `signSchedule()`, `deleteSchedule()`).
  await call.evm.stateManager.putCode(new Address(scheduleAddress), redirectBytecode('SCHEDULE', scheduleAddress));
  if (required) {
    const authorizing = await authorizingKeys(call, id, undefined);
    const settled = await settleCreated(call, { entity, ...held, stored: false }, authorizing, required);
    if (!settled) return undefined;
  }
  return { status: 'SUCCESS', schedule: scheduleAddress };
}
