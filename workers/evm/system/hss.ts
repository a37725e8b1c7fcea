/**
 * HSS, the schedule service system contract at 0x16b (HIP-755, HIP-756): `getScheduledCreateFungibleTokenInfo` and
 * `getScheduledCreateNonFungibleTokenInfo` (views of a scheduled TokenCreate), and the ScheduleSign of
 * `authorizeSchedule(schedule)` and of `signSchedule()` through a schedule's redirect proxy. Other functions
 * (`signSchedule(address,bytes)`, `scheduleNative`, `scheduleCall`, `deleteSchedule`, …) answer 501.
 */
import type { ExecResult, PrecompileFunc } from '@ethereumjs/evm';
import { scheduleAt } from '../../../db/queries/evm-schedules.ts';
import { longZeroAddress } from '../addresses.ts';
import type { LedgerReader } from '../types.ts';
import { AbiArgs, AbiDecodeError, address, bytes, encode, int, leadingSelector, selectorOf, tuple } from './abi.ts';
import { ZERO_ADDRESS } from './addresses.ts';
import { delegatingContract } from './frames.ts';
import { type HtsCall, systemCallBase } from './hts-context.ts';
import { canonicalGas } from './hts-gas.ts';
import { parseRedirect } from './redirect-input.ts';
import { halt, notImplemented, type ResponseCodeName, responseCode, revertWith, success, VIEW_GAS } from './results.ts';
import { scheduledToken } from './scheduled-token.ts';
import { ledgerIdOf, tokenInfoTuple } from './token-tuples.ts';

const REDIRECT_FOR_SCHEDULE = selectorOf('redirectForScheduleTxn(address,bytes)');
const SIGN_SCHEDULE_PROXY = selectorOf('signSchedule()');
const AUTHORIZE_SCHEDULE = selectorOf('authorizeSchedule(address)');
const FUNGIBLE_INFO = selectorOf('getScheduledCreateFungibleTokenInfo(address)');
const NFT_INFO = selectorOf('getScheduledCreateNonFungibleTokenInfo(address)');

/** The schedule entity at an address: its id, and whether it was deleted by the block. */
async function scheduleEntityAt(call: HtsCall, at: Uint8Array) {
  const entity = await call.reader.entityByAddress(at);
  return entity?.type === 'SCHEDULE' ? entity : undefined;
}

async function scheduleRow(call: HtsCall, id: bigint) {
  const { block } = call.reader;
  return scheduleAt(call.reader.db, id, block.historical ? block.consensusEnd : undefined);
}

/**
 * The ScheduleSign of the call's sender: a schedule that does not exist reverts with all the gas (the translator's
 * INVALID_SCHEDULE_ID); a deleted, executed or expired one answers its status; a live one SUCCESS.
 */
async function signSchedule(call: HtsCall, at: Uint8Array): Promise<ExecResult> {
  const entity = await scheduleEntityAt(call, at);
  const row = entity && (await scheduleRow(call, entity.id));
  if (!entity || !row) return revertWith('INVALID_SCHEDULE_ID', call.gasLimit, call.gasLimit);
  if (call.isStatic) return halt(call.gasLimit);
  const { block } = call.reader;
  const now = block.consensusStart;
  const executed = row.executed_timestamp !== null && BigInt(row.executed_timestamp) <= block.consensusEnd;
  const expired = row.expiration_time !== null && BigInt(row.expiration_time) <= now;
  const status: ResponseCodeName = entity.deleted
    ? 'SCHEDULE_ALREADY_DELETED'
    : executed
      ? 'SCHEDULE_ALREADY_EXECUTED'
      : expired
        ? 'INVALID_SCHEDULE_ID'
        : 'SUCCESS';
  return success(canonicalGas('SCHEDULE_SIGN'), call.gasLimit, encode(int(responseCode(status))));
}

/** A view of the scheduled TokenCreate of the schedule in argument 0. */
async function scheduledTokenInfo(call: HtsCall, fungible: boolean): Promise<ExecResult> {
  const entity = await scheduleEntityAt(call, call.args.address(0));
  const row = entity && (await scheduleRow(call, entity.id));
  if (!row) return revertWith('RECORD_NOT_FOUND', VIEW_GAS, call.gasLimit);
  const scheduled = scheduledToken(row.transaction_body);
  if (!scheduled || scheduled.token.fungible !== fungible) {
    return revertWith('INVALID_SCHEDULE_ID', VIEW_GAS, call.gasLimit);
  }
  const { token, metadata } = scheduled;
  const info = tokenInfoTuple(token, ledgerIdOf(call.reader.settings.network));
  const treasury = address(token.treasury === 0n ? ZERO_ADDRESS : longZeroAddress(token.treasury));
  const output = fungible
    ? tuple(info, int(token.decimals))
    : tuple(info, int(0n), treasury, int(0n), bytes(metadata), treasury);
  return success(VIEW_GAS, call.gasLimit, encode(int(responseCode('SUCCESS')), output));
}

async function direct(call: HtsCall, selector: number): Promise<ExecResult> {
  switch (selector) {
    case AUTHORIZE_SCHEDULE:
      return signSchedule(call, call.args.address(0));
    case FUNGIBLE_INFO:
      return scheduledTokenInfo(call, true);
    case NFT_INFO:
      return scheduledTokenInfo(call, false);
    default:
      return notImplemented();
  }
}

export function hssPrecompile(reader: LedgerReader): PrecompileFunc {
  return async ({ data, gasLimit, _EVM }) => {
    const selector = leadingSelector(data);
    if (selector === undefined) return halt(gasLimit);
    const base = systemCallBase(reader, _EVM, gasLimit);
    try {
      if (selector === REDIRECT_FOR_SCHEDULE) {
        const redirected = parseRedirect(data);
        if (!redirected || leadingSelector(redirected.data) !== SIGN_SCHEDULE_PROXY) {
          return redirected ? notImplemented() : halt(gasLimit);
        }
        return await signSchedule({ ...base, args: new AbiArgs(redirected.data.subarray(4)) }, redirected.target);
      }
      // Only a schedule's own proxy may DELEGATECALL HSS; any other delegation halts (UNQUALIFIED_DELEGATE).
      const delegating = delegatingContract(_EVM);
      if (delegating && (await reader.entityByAddress(delegating))?.type !== 'SCHEDULE') return halt(gasLimit);
      return await direct({ ...base, args: new AbiArgs(data.subarray(4)) }, selector);
    } catch (error) {
      if (error instanceof AbiDecodeError) return halt(gasLimit);
      throw error;
    }
  };
}
