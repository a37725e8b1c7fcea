/**
 * A ScheduleSign inside a call (the consensus node's SignScheduleTranslator, HssCallAttempt.keySetFor,
 * ScheduleSignHandler): the keys the call authorizes with join the schedule's signatories when the schedule needs
 * them; a schedule that waits for its expiry only collects them, one that does not executes once its signatories
 * activate every required key, as a child of the call paid by the schedule's payer. A signing that adds no signatory
 * and executes nothing fails with NO_NEW_VALID_SIGNATURES.
 */
import { scheduleSignatures } from '../../../db/queries/evm-schedules.ts';
import { decodeEntityId } from '../../params/entity-id.ts';
import { longZeroAddress } from '../addresses.ts';
import type { EvmEntity } from '../types.ts';
import { partiesOf } from './call-parties.ts';
import { pairVerifies, signaturePairs } from './has-is-authorized.ts';
import type { HtsCall } from './hts-context.ts';
import type { ResponseCodeName } from './results.ts';
import { execute } from './schedule-execution.ts';
import { keyActive, requiredKeys, type Signatory, signatoryOf, withNewSignatories } from './schedule-keys.ts';
import type { ScheduledBody } from './scheduled-body.ts';
import { contractKeyBytes } from './token-structs.ts';

/** What signing and executing a schedule need to know of it. */
export interface SignableSchedule {
  readonly entity: EvmEntity;
  readonly payer: bigint;
  readonly waitForExpiry: boolean;
  readonly body: ScheduledBody;
  /** Whether the schedule is in the ledger (its signatures there count), not one this run created. */
  readonly stored: boolean;
}

/** `transaction_signature.type` of the SignaturePair cases that are keys a schedule can count. */
const SIGNATURE_ED25519 = 3;
const SIGNATURE_ECDSA = 6;
/** Key fields of the same kinds: a Key { ed25519 } is tag 0x12, a Key { ECDSA_secp256k1 } tag 0x3a. */
const KEY_TAG: Readonly<Record<number, number>> = { [SIGNATURE_ED25519]: 0x12, [SIGNATURE_ECDSA]: 0x3a };
const MAX_SHORT_LENGTH = 0x7f;

const keyOfPrefix = (tag: number, prefix: Uint8Array) => new Uint8Array([tag, prefix.length, ...prefix]);

/** The signatories the ledger holds for a schedule: the full public keys its ScheduleCreate and ScheduleSigns carried. */
async function storedSignatories(call: HtsCall, schedule: SignableSchedule): Promise<Set<Signatory>> {
  const signatories = new Set<Signatory>();
  if (!schedule.stored) return signatories;
  const { block, db } = call.reader;
  const rows = await scheduleSignatures(db, schedule.entity.id, block.historical ? block.consensusEnd : undefined);
  for (const { public_key_prefix: prefix, type } of rows) {
    const tag = type === null ? undefined : KEY_TAG[type];
    if (tag === undefined || prefix.length > MAX_SHORT_LENGTH) continue;
    const signatory = signatoryOf(keyOfPrefix(tag, prefix));
    if (signatory) signatories.add(signatory);
  }
  return signatories;
}

/** SystemContractUtils.messageFromScheduleId: the schedule's shard, realm and number as three big-endian longs. */
function scheduleMessage(id: bigint): Uint8Array {
  const parts = decodeEntityId(id);
  const message = new Uint8Array(24);
  const view = new DataView(message.buffer);
  view.setBigUint64(0, parts?.shard ?? 0n);
  view.setBigUint64(8, parts?.realm ?? 0n);
  view.setBigUint64(16, parts?.num ?? 0n);
  return message;
}

/**
 * The keys the ScheduleSign authorizes with: for `signSchedule(address,bytes)` the ED25519 and ECDSA keys of the
 * SignatureMap whose signatures over the schedule's message verify; otherwise a contract sender's ContractID key
 * (DelegatableContractID when it runs delegated code), or an account sender's own key.
 */
export async function authorizingKeys(
  call: HtsCall,
  scheduleId: bigint,
  signatureMap: Uint8Array | undefined,
): Promise<Set<Signatory>> {
  const keys = new Set<Signatory>();
  const add = (key: Uint8Array | undefined) => {
    const signatory = key && signatoryOf(key);
    if (signatory) keys.add(signatory);
  };
  if (signatureMap) {
    const message = scheduleMessage(scheduleId);
    for (const pair of signaturePairs(signatureMap)) {
      const tag = pair.kind === 'ed' ? KEY_TAG[SIGNATURE_ED25519] : KEY_TAG[SIGNATURE_ECDSA];
      if (pair.kind !== 'other' && tag && pairVerifies(pair, pair.prefix, message)) add(keyOfPrefix(tag, pair.prefix));
    }
    return keys;
  }
  const { sender, signers } = await partiesOf(call);
  if (sender?.type === 'CONTRACT') {
    add(contractKeyBytes(longZeroAddress(sender.id), signers.delegated, call.reader.settings));
  } else {
    add(signers.originKey);
  }
  return keys;
}

/**
 * The first signatories of a schedule the run just created (the creating call's keys among its required keys, and
 * its contract keys), executing it when they complete a schedule that does not wait for its expiry; false when that
 * would execute a kind not executed here.
 */
export async function settleCreated(
  call: HtsCall,
  schedule: SignableSchedule,
  authorizing: ReadonlySet<Signatory>,
  required: readonly Uint8Array[],
): Promise<boolean> {
  const signatories = withNewSignatories(new Set(), authorizing, required);
  call.tokens.putScheduleSignatories(schedule.entity.id, signatories);
  if (schedule.waitForExpiry || !required.every((key) => keyActive(key, signatories))) return true;
  if (!(await execute(call, schedule, signatories))) return false;
  call.tokens.markScheduleExecuted(schedule.entity.id);
  return true;
}

/**
 * Adds the authorizing keys to a live schedule's signatories and executes it when they complete it: the status of
 * the ScheduleSign, or undefined when the schedule holds a kind whose keys or execution are not modelled here.
 */
export async function signWith(
  call: HtsCall,
  schedule: SignableSchedule,
  authorizing: ReadonlySet<Signatory>,
): Promise<ResponseCodeName | undefined> {
  const required = await requiredKeys(call, schedule.payer, schedule.body);
  if (required === undefined || typeof required === 'string') return required;
  const { id } = schedule.entity;
  const previous = call.tokens.scheduleSignatories(id) ?? (await storedSignatories(call, schedule));
  const next = withNewSignatories(previous, authorizing, required);
  const added = next.size > previous.size;
  if (!schedule.waitForExpiry && required.every((key) => keyActive(key, next))) {
    if (!(await execute(call, schedule, next))) return undefined;
    call.tokens.markScheduleExecuted(id);
    call.tokens.putScheduleSignatories(id, next);
    return 'SUCCESS';
  }
  if (!added) return 'NO_NEW_VALID_SIGNATURES';
  call.tokens.putScheduleSignatories(id, next);
  return 'SUCCESS';
}
