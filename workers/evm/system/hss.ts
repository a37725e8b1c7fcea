/**
 * HSS, the schedule service system contract at 0x16b (HIP-755, HIP-756): `getScheduledCreateFungibleTokenInfo` and
 * `getScheduledCreateNonFungibleTokenInfo` (views of a scheduled TokenCreate), and the ScheduleSign of
 * `authorizeSchedule(schedule)`, `signSchedule(schedule, signatureMap)` and `signSchedule()` through a schedule's
 * redirect proxy, and the ScheduleDelete of `deleteSchedule(schedule)` and `deleteSchedule()` through the proxy
 * (HIP-1215), and the schedules `hss-schedule-call.ts` and `hss-schedule-native.ts` create, which the other
 * functions see. A selector the node does not have succeeds with no output and no gas (results.ts, `unknownSelector`).
 */
import type { ExecResult, PrecompileFunc } from '@ethereumjs/evm';
import { hexOfBytes } from '../../../db/bytea.ts';
import { type ScheduleRow, scheduleAt } from '../../../db/queries/evm-schedules.ts';
import { entityIdOfLongZero, longZeroAddress } from '../addresses.ts';
import type { EvmEntity, LedgerReader } from '../types.ts';
import { AbiArgs, AbiDecodeError, address, bytes, encode, int, leadingSelector, selectorOf, tuple } from './abi.ts';
import { ZERO_ADDRESS } from './addresses.ts';
import { partiesOf } from './call-parties.ts';
import { delegatingContract } from './frames.ts';
import { signaturePairs } from './has-is-authorized.ts';
import {
  EXECUTE_CALL_ON_PAYER_SIGNATURE,
  HAS_SCHEDULE_CAPACITY,
  hasScheduleCapacity,
  SCHEDULE_CALL,
  SCHEDULE_CALL_WITH_PAYER,
  scheduleCall,
} from './hss-schedule-call.ts';
import { SCHEDULE_NATIVE, scheduleNative } from './hss-schedule-native.ts';
import { authorizingKeys, type SignableSchedule, signWith } from './hss-schedule-sign.ts';
import { type HtsCall, systemCallBase } from './hts-context.ts';
import { canonicalGas } from './hts-gas.ts';
import { keySatisfied } from './key-checks.ts';
import { parseRedirect } from './redirect-input.ts';
import {
  halt,
  notImplemented,
  type ResponseCodeName,
  responseCode,
  revertWith,
  success,
  unknownSelector,
  VIEW_GAS,
} from './results.ts';
import { scheduledBodyOf } from './scheduled-body.ts';
import { ledgerIdOf, tokenInfoTuple } from './token-tuples.ts';

const REDIRECT_FOR_SCHEDULE = selectorOf('redirectForScheduleTxn(address,bytes)');
const SIGN_SCHEDULE_PROXY = selectorOf('signSchedule()');
const AUTHORIZE_SCHEDULE = selectorOf('authorizeSchedule(address)');
const DELETE_SCHEDULE = selectorOf('deleteSchedule(address)');
const SIGN_SCHEDULE = selectorOf('signSchedule(address,bytes)');
const DELETE_SCHEDULE_PROXY = selectorOf('deleteSchedule()');
const FUNGIBLE_INFO = selectorOf('getScheduledCreateFungibleTokenInfo(address)');
const NFT_INFO = selectorOf('getScheduledCreateNonFungibleTokenInfo(address)');

interface FoundSchedule {
  readonly entity: EvmEntity;
  /** The ledger's row; for a schedule the run created, one with its expiry and no stored body. */
  readonly row: ScheduleRow;
  readonly schedule: SignableSchedule;
}

/** A schedule the run created, at its long-zero address. */
function createdScheduleAt(call: HtsCall, at: Uint8Array): FoundSchedule | undefined {
  const { shard, realm } = call.reader.settings;
  const id = entityIdOfLongZero(at, shard, realm);
  const created = id === undefined ? undefined : call.tokens.createdSchedule(id);
  if (!created) return undefined;
  const { entity, payer, waitForExpiry, body } = created;
  const row = {
    executed_timestamp: null,
    expiration_time: String(created.expirationTime),
    payer_account_id: String(payer),
    wait_for_expiry: waitForExpiry,
    transaction_body: new Uint8Array(),
  };
  return { entity, row, schedule: { entity, payer, waitForExpiry, body, stored: false } };
}

/** The schedule at an address (one the run created included) and its row at the block; undefined when none. */
async function scheduleAtAddress(call: HtsCall, at: Uint8Array): Promise<FoundSchedule | undefined> {
  const created = createdScheduleAt(call, at);
  if (created) return created;
  const entity = await call.reader.entityByAddress(at);
  if (entity?.type !== 'SCHEDULE') return undefined;
  const { block } = call.reader;
  const row = await scheduleAt(call.reader.db, entity.id, block.historical ? block.consensusEnd : undefined);
  if (!row) return undefined;
  const schedule = {
    entity,
    payer: BigInt(row.payer_account_id),
    waitForExpiry: row.wait_for_expiry,
    body: scheduledBodyOf(row.transaction_body),
    stored: true,
  };
  return { entity, row, schedule };
}

/**
 * The ScheduleSign of the call's sender (or of the SignatureMap's keys): a schedule that does not exist reverts with
 * all the gas (the translator's INVALID_SCHEDULE_ID); a deleted, executed or expired one answers its status; a live
 * one the signing's (hss-schedule-sign.ts). A schedule of a kind not modelled here answers 501.
 */
async function signSchedule(call: HtsCall, at: Uint8Array, signatureMap?: Uint8Array): Promise<ExecResult> {
  const found = await scheduleAtAddress(call, at);
  if (!found) return revertWith('INVALID_SCHEDULE_ID', call.gasLimit, call.gasLimit);
  // `signSchedule(address,bytes)`: a SignatureMap that does not parse, or whose ECDSA recovery id names another
  // chain, fails in the translator (INVALID_TRANSACTION_BODY), which halts.
  if (signatureMap && !parses(signatureMap, call.reader.settings.chainId)) return halt(call.gasLimit);
  if (call.isStatic) return halt(call.gasLimit);
  let status: ResponseCodeName | undefined = scheduleStatus(call, found.entity, found.row);
  if (status === 'SUCCESS') {
    const authorizing = await authorizingKeys(call, found.entity.id, signatureMap);
    status = await signWith(call, found.schedule, authorizing);
    if (status === undefined) return notImplemented();
  }
  return success(canonicalGas('SCHEDULE_SIGN'), call.gasLimit, encode(int(responseCode(status))));
}

const LONG_MAX = (1n << 63n) - 1n;

/** The recovery ids (v) SignatureMapUtils.validChainId accepts: below 35, or EIP-155's for the chain, as a long. */
function validRecovery(recovery: Uint8Array, chainId: bigint): boolean {
  if (recovery.length === 0) return true;
  const v = BigInt(`0x${hexOfBytes(recovery)}`);
  if (v > LONG_MAX) return false;
  return v < 35n || v === 35n + 2n * chainId || v === 36n + 2n * chainId;
}

function parses(signatureMap: Uint8Array, chainId: bigint): boolean {
  try {
    return signaturePairs(signatureMap).every((pair) => validRecovery(pair.recovery, chainId));
  } catch {
    return false;
  }
}

/** What the handlers answer for a schedule that is deleted (in the ledger or in this run), executed or expired. */
function scheduleStatus(call: HtsCall, entity: EvmEntity, row: ScheduleRow): ResponseCodeName {
  const { block } = call.reader;
  const executed = row.executed_timestamp !== null && BigInt(row.executed_timestamp) <= block.consensusEnd;
  const expired = row.expiration_time !== null && BigInt(row.expiration_time) <= block.consensusStart;
  if (executed || call.tokens.scheduleExecuted(entity.id)) return 'SCHEDULE_ALREADY_EXECUTED';
  if (entity.deleted || call.tokens.scheduleDeleted(entity.id)) return 'SCHEDULE_ALREADY_DELETED';
  return expired ? 'INVALID_SCHEDULE_ID' : 'SUCCESS';
}

/**
 * The ScheduleDelete of `deleteSchedule(address)`, or of `deleteSchedule()` through a schedule's proxy
 * (DeleteScheduleTranslator, ScheduleDeleteHandler): the schedule's admin key must be active; answers the response
 * code without reverting, and marks the schedule deleted for the rest of the run.
 */
async function deleteSchedule(call: HtsCall, at: Uint8Array): Promise<ExecResult> {
  if (call.isStatic) return halt(call.gasLimit);
  const status = await (async (): Promise<ResponseCodeName> => {
    const found = await scheduleAtAddress(call, at);
    if (!found) return 'INVALID_SCHEDULE_ID';
    const { entity, row } = found;
    if (!entity.key) return 'SCHEDULE_IS_IMMUTABLE';
    if (!keySatisfied(entity.key, (await partiesOf(call)).signers))
      return 'INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE';
    const current = scheduleStatus(call, entity, row);
    if (current === 'SUCCESS') call.tokens.deleteSchedule(entity.id);
    return current;
  })();
  return success(canonicalGas('SCHEDULE_DELETE'), call.gasLimit, encode(int(responseCode(status))));
}

/** A view of the scheduled TokenCreate of the schedule in argument 0. */
async function scheduledTokenInfo(call: HtsCall, fungible: boolean): Promise<ExecResult> {
  const found = await scheduleAtAddress(call, call.args.address(0));
  if (!found) return revertWith('RECORD_NOT_FOUND', VIEW_GAS, call.gasLimit);
  const { body } = found.schedule;
  if (body.kind !== 'TOKEN_CREATE' || body.token.token.fungible !== fungible) {
    return revertWith('INVALID_SCHEDULE_ID', VIEW_GAS, call.gasLimit);
  }
  const { token, metadata } = body.token;
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
    case DELETE_SCHEDULE:
      return deleteSchedule(call, call.args.address(0));
    case SIGN_SCHEDULE:
      return signSchedule(call, call.args.address(0), call.args.bytes(1));
    case FUNGIBLE_INFO:
      return scheduledTokenInfo(call, true);
    case NFT_INFO:
      return scheduledTokenInfo(call, false);
    case SCHEDULE_CALL:
    case SCHEDULE_CALL_WITH_PAYER:
    case EXECUTE_CALL_ON_PAYER_SIGNATURE:
      return scheduleCall(call, selector);
    case HAS_SCHEDULE_CAPACITY:
      return hasScheduleCapacity(call);
    case SCHEDULE_NATIVE:
      return scheduleNative(call);
    default:
      // every function the node's HSS translators declare (0.73) is handled here or through the redirect
      return unknownSelector();
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
        if (!redirected) return halt(gasLimit);
        const call = { ...base, args: new AbiArgs(redirected.data.subarray(4)) };
        const proxied = leadingSelector(redirected.data);
        if (proxied === SIGN_SCHEDULE_PROXY) return await signSchedule(call, redirected.target);
        if (proxied === DELETE_SCHEDULE_PROXY) return await deleteSchedule(call, redirected.target);
        return unknownSelector();
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
