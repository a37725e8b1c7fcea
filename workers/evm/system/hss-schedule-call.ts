/**
 * HIP-1215 scheduled contract calls through HSS (0x16b): `scheduleCall`, `scheduleCallWithPayer` and
 * `executeCallOnPayerSignature` are a ScheduleCreate of a ContractCall (the consensus node's ScheduleCallTranslator,
 * ScheduleCallDecoder and DispatchForResponseCodeHssCall, run by ScheduleCreateHandler; its end in
 * schedule-create.ts). A created schedule takes the run's next entity number and lives in the run's token ledger,
 * where later reads, signatures and deletions of the call find it. The answer is the response code and the schedule's address (the zero address when none was made),
 * never a revert. `hasScheduleCapacity` answers whether such a schedule's expiry would be accepted.
 */
import type { ExecResult } from '@ethereumjs/evm';
import { hexOfBytes } from '../../../db/bytea.ts';
import { schedulesExpiringAt } from '../../../db/queries/evm-schedules.ts';
import { fields } from '../../format/protobuf-reader.ts';
import { longZeroAddress } from '../addresses.ts';
import type { EvmEntity } from '../types.ts';
import { AbiDecodeError, address, bool, encode, int, selectorOf } from './abi.ts';
import { ZERO_ADDRESS } from './addresses.ts';
import { partiesOf } from './call-parties.ts';
import { accountAt, type HtsCall } from './hts-context.ts';
import { canonicalGas } from './hts-gas.ts';
import { halt, notImplemented, type ResponseCodeName, responseCode, success, VIEW_GAS } from './results.ts';
import { NS_PER_SECOND, type Outcome, storeSchedule } from './schedule-create.ts';
import { scheduledBodyOf } from './scheduled-body.ts';
import { contractKeyBytes } from './token-structs.ts';

export const SCHEDULE_CALL = selectorOf('scheduleCall(address,uint256,uint256,uint64,bytes)');
export const SCHEDULE_CALL_WITH_PAYER = selectorOf(
  'scheduleCallWithPayer(address,address,uint256,uint256,uint64,bytes)',
);
export const EXECUTE_CALL_ON_PAYER_SIGNATURE = selectorOf(
  'executeCallOnPayerSignature(address,address,uint256,uint256,uint64,bytes)',
);
export const HAS_SCHEDULE_CAPACITY = selectorOf('hasScheduleCapacity(uint256,uint256)');

/** `scheduling.maxExpirationFutureSeconds`: how far ahead a schedule may expire (62 days). */
const MAX_EXPIRATION_FUTURE_SECONDS = 5_356_800n;
/** `asLongLimitedToZeroOrMax`: a uint256 above int64 becomes Long.MAX_VALUE. */
const LONG_MAX = (1n << 63n) - 1n;
const UINT64_LIMIT = 1n << 64n;
/** SchedulableTransactionBody.contractCall. */
const CONTRACT_CALL_FIELD = 3;

interface ScheduledCall {
  readonly to: Uint8Array;
  /** The payer's address; undefined: the calling account pays. */
  readonly payer: Uint8Array | undefined;
  readonly expirySecond: bigint;
  readonly gas: bigint;
  readonly value: bigint;
  readonly data: Uint8Array;
  readonly waitForExpiry: boolean;
}

function decode(call: HtsCall, selector: number): ScheduledCall {
  const { args } = call;
  const withPayer = selector !== SCHEDULE_CALL;
  const first = withPayer ? 2 : 1;
  const value = args.uint(first + 2);
  if (value >= UINT64_LIMIT) throw new AbiDecodeError('uint64 out of range');
  const limited = (raw: bigint) => (raw > LONG_MAX ? LONG_MAX : raw);
  return {
    to: args.address(0),
    payer: withPayer ? args.address(1) : undefined,
    expirySecond: limited(args.uint(first)),
    gas: limited(args.uint(first + 1)),
    value: limited(value),
    data: args.bytes(first + 3),
    waitForExpiry: selector !== EXECUTE_CALL_ON_PAYER_SIGNATURE,
  };
}

/** What makes two schedules identical to the node (ScheduleStoreUtility.calculateBytesHash): not the payer. */
function identity(adminKey: Uint8Array | undefined, scheduled: ScheduledCall): string {
  const { to, gas, value, data, expirySecond, waitForExpiry } = scheduled;
  return [
    hexOfBytes(adminKey ?? new Uint8Array()),
    hexOfBytes(to),
    gas,
    value,
    hexOfBytes(data),
    expirySecond,
    waitForExpiry,
  ].join('/');
}

/** ScheduleCreateHandler.checkExpiry: the second must lie after the block's and at most 62 days ahead of it. */
export function expiryStatus(call: HtsCall, expirySecond: bigint): ResponseCodeName {
  const now = call.reader.block.consensusStart / NS_PER_SECOND;
  if (expirySecond <= now) return 'SCHEDULE_EXPIRATION_TIME_MUST_BE_HIGHER_THAN_CONSENSUS_TIME';
  if (expirySecond > now + MAX_EXPIRATION_FUTURE_SECONDS) return 'SCHEDULE_EXPIRATION_TIME_TOO_FAR_IN_FUTURE';
  return 'SUCCESS';
}

/** The plain ContractCall body the node schedules (no memo, no fee), as the ledger stores it. */
function onlyContractCall(schedulable: Uint8Array): boolean {
  try {
    return [...fields(schedulable)].every((field) => field.number === CONTRACT_CALL_FIELD);
  } catch {
    return false;
  }
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => hexOfBytes(a) === hexOfBytes(b);

/** The ledger's schedule identical to this one (same admin key, no memo, same call, expiry and wait flag), if any. */
async function identicalInLedger(
  call: HtsCall,
  adminKey: Uint8Array | undefined,
  scheduled: ScheduledCall,
): Promise<bigint | undefined> {
  const { block, db } = call.reader;
  const at = block.historical ? block.consensusEnd : undefined;
  const rows = await schedulesExpiringAt(db, scheduled.expirySecond * NS_PER_SECOND, scheduled.waitForExpiry, at);
  const identical = rows.find((row) => {
    const body = scheduledBodyOf(row.transaction_body);
    return (
      body.kind === 'CONTRACT_CALL' &&
      onlyContractCall(row.transaction_body) &&
      (row.memo ?? '') === '' &&
      sameBytes(row.key ?? new Uint8Array(), adminKey ?? new Uint8Array()) &&
      sameBytes(body.to, scheduled.to) &&
      body.gas === scheduled.gas &&
      body.value === scheduled.value &&
      sameBytes(body.data, scheduled.data)
    );
  });
  return identical && BigInt(identical.schedule_id);
}

/** The ScheduleCreate's checks in the handler's order, then the schedule made in the run's ledger. */
async function create(call: HtsCall, sender: EvmEntity, scheduled: ScheduledCall): Promise<Outcome | undefined> {
  const failed = (status: ResponseCodeName): Outcome => ({ status, schedule: ZERO_ADDRESS });
  const payer = scheduled.payer ? await accountAt(call, scheduled.payer) : sender;
  if (!payer) return failed('ACCOUNT_ID_DOES_NOT_EXIST');
  const expiry = expiryStatus(call, scheduled.expirySecond);
  if (expiry !== 'SUCCESS') return failed(expiry);
  const { signers } = await partiesOf(call);
  // HssCallAttempt.keySetFor: a contract sender's ContractID key (DelegatableContractID when it runs delegated code).
  const adminKey =
    sender.type === 'CONTRACT'
      ? contractKeyBytes(longZeroAddress(sender.id), signers.delegated, call.reader.settings)
      : signers.originKey;
  const { to, gas, value, data, expirySecond, waitForExpiry } = scheduled;
  return storeSchedule(call, {
    adminKey,
    expirySecond,
    identity: identity(adminKey, scheduled),
    inLedger: () => identicalInLedger(call, adminKey, scheduled),
    payer: payer.id,
    waitForExpiry,
    body: { kind: 'CONTRACT_CALL', to, gas, value, data },
  });
}

/**
 * A scheduled contract call: a sender that is no account halts (keySetFor finds no account), as does a static
 * frame; otherwise the ScheduleCreate's status and schedule address, for the ScheduleCreate-of-a-ContractCall gas.
 */
export async function scheduleCall(call: HtsCall, selector: number): Promise<ExecResult> {
  const scheduled = decode(call, selector);
  if (call.isStatic) return halt(call.gasLimit);
  const { sender } = await partiesOf(call);
  if (!sender) return halt(call.gasLimit);
  const outcome = await create(call, sender, scheduled);
  if (!outcome) return notImplemented();
  const { status, schedule } = outcome;
  const output = encode(int(responseCode(status)), address(schedule));
  return success(canonicalGas('SCHEDULE_CREATE_CONTRACT_CALL'), call.gasLimit, output);
}

/**
 * `hasScheduleCapacity(expirySecond, gasLimit)` (HasScheduleCapacityTranslator, ScheduleServiceApi
 * .hasContractCallCapacity): whether a ContractCall could be scheduled for that second, a view also in a static frame.
 */
export function hasScheduleCapacity(call: HtsCall): ExecResult {
  const expirySecond = call.args.uint(0);
  // The gas limit only sizes the second's gas throttle, not modelled here; a call without it still halts.
  call.args.uint(1);
  const capacity = expirySecond <= LONG_MAX && expiryStatus(call, expirySecond) === 'SUCCESS';
  return success(VIEW_GAS, call.gasLimit, encode(bool(capacity)));
}
