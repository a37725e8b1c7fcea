/**
 * HIP-756 `scheduleNative(contract, callData, payer)` on HSS (0x16b): a ScheduleCreate of the token creation or
 * update the HTS call data describes, paid by `payer` (the consensus node's ScheduleNativeTranslator and
 * ScheduleNativeCall). The schedule has no admin key and no expiry of its own, so it expires after
 * `ledger.scheduleTxExpiryTimeSecs`; it lives in the run's token ledger like the schedules of `scheduleCall`.
 */
import type { ExecResult } from '@ethereumjs/evm';
import { hexOfBytes } from '../../../db/bytea.ts';
import { address, encode, int, leadingSelector, selectorOf } from './abi.ts';
import { partiesOf } from './call-parties.ts';
import { accountAt, type HtsCall } from './hts-context.ts';
import { canonicalGas } from './hts-gas.ts';
import { TOKEN_CREATE_FUNCTIONS } from './hts-token-create.ts';
import { TOKEN_UPDATE_FUNCTIONS } from './hts-token-update.ts';
import { halt, notImplemented, responseCode, revertWith, success } from './results.ts';
import { NS_PER_SECOND, storeSchedule } from './schedule-create.ts';
import type { ScheduledBody } from './scheduled-body.ts';
import { scheduledCreation } from './scheduled-creation.ts';
import { scheduledUpdate } from './scheduled-update.ts';

export const SCHEDULE_NATIVE = selectorOf('scheduleNative(address,bytes,address)');

/** The HTS calls a schedule may hold: the create and update functions (CreateTranslator, UpdateTokenCommons). */
const SCHEDULABLE = new Set([...TOKEN_CREATE_FUNCTIONS, ...TOKEN_UPDATE_FUNCTIONS].map(([name]) => selectorOf(name)));
/** `ledger.scheduleTxExpiryTimeSecs`: the lifetime of a schedule created without an expiration time. */
const DEFAULT_LIFETIME_SECONDS = 1800n;
const HTS_ADDRESS = '0000000000000000000000000000000000000167';

/**
 * The translator halts for a target other than 0x167, call data that is no create or update, and a sender that is no
 * account; a payer that is no account fails the ScheduleCreate (ACCOUNT_ID_DOES_NOT_EXIST), which reverts with the
 * status, as does the same schedule made twice in the run. Otherwise SUCCESS and the schedule's address, for the
 * ScheduleCreate price.
 */
export async function scheduleNative(call: HtsCall): Promise<ExecResult> {
  const target = call.args.address(0);
  const inner = call.args.bytes(1);
  const payer = call.args.address(2);
  const selector = leadingSelector(inner);
  if (hexOfBytes(target) !== HTS_ADDRESS || selector === undefined || !SCHEDULABLE.has(selector)) {
    return halt(call.gasLimit);
  }
  if (call.isStatic || !(await partiesOf(call)).sender) return halt(call.gasLimit);
  const gas = canonicalGas('SCHEDULE_CREATE');
  const payerAccount = await accountAt(call, payer);
  if (!payerAccount) return revertWith('ACCOUNT_ID_DOES_NOT_EXIST', gas, call.gasLimit);
  const creation = await scheduledCreation(call, inner);
  if (typeof creation === 'string') return revertWith(creation, gas, call.gasLimit);
  const body: ScheduledBody = creation
    ? { kind: 'TOKEN_CREATE', token: creation.token, input: creation.input }
    : await scheduledUpdate(call, inner);
  const expirySecond = call.reader.block.consensusStart / NS_PER_SECOND + DEFAULT_LIFETIME_SECONDS;
  const outcome = await storeSchedule(call, {
    adminKey: undefined,
    expirySecond,
    identity: `native/${hexOfBytes(inner)}`,
    payer: payerAccount.id,
    waitForExpiry: false,
    body,
  });
  if (!outcome) return notImplemented();
  const { status, schedule } = outcome;
  if (status !== 'SUCCESS') return revertWith(status, gas, call.gasLimit);
  return success(gas, call.gasLimit, encode(int(responseCode('SUCCESS')), address(schedule)));
}
