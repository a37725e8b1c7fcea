/**
 * Schedules: ScheduleCreate / Sign / Delete (`schedule`, the SCHEDULE entity, `transaction_signature`) and
 * the execution of a scheduled transaction (`schedule.executed_timestamp`).
 */
import { publicKeyHex } from '../decode/key.ts';
import type { PbEntityId } from '../decode/types.ts';
import { accountId, entityRow, type ItemContext, nanos, scheduleId, serviceBody } from './context.ts';
import { decodedEthereumTransaction } from './ethereum.ts';

const ETHEREUM_TRANSACTION = 50;

interface ScheduleCreateBody {
  scheduledTransactionBody?: Uint8Array;
  memo?: string;
  adminKey?: Uint8Array;
  payerAccountID?: PbEntityId;
  expiration_time?: unknown;
  wait_for_expiry?: boolean;
}

export function scheduleCreate(ctx: ItemContext): void {
  const { item } = ctx;
  if (!item.successful) return;
  const body = serviceBody<ScheduleCreateBody>(ctx);
  const id = scheduleId(item.record.receipt?.scheduleID);
  if (id === 0n) return;
  const ts = item.consensusTimestamp;
  ctx.rows.change(
    'entity',
    {
      ...entityRow(id),
      created_timestamp: ts,
      deleted: false,
      // The schedule's expiration is the schedule row's; the importer leaves the entity's unset.
      key: body.adminKey ?? null,
      memo: body.memo ?? '',
      public_key: publicKeyHex(body.adminKey),
      type: 'SCHEDULE',
    },
    ts,
  );
  // A schedule an Ethereum transaction's contract creates (HIP-755) is the Ethereum sender's, not the relay's.
  const creator = ethereumParentSender(ctx) ?? item.payerAccountId;
  ctx.rows.replace('schedule', {
    schedule_id: id,
    consensus_timestamp: ts,
    creator_account_id: creator,
    payer_account_id: accountId(body.payerAccountID) || creator,
    transaction_body: body.scheduledTransactionBody ?? new Uint8Array(),
    expiration_time: body.expiration_time ? nanos(body.expiration_time) : null,
    wait_for_expiry: body.wait_for_expiry ?? false,
  });
  signatures(ctx, id);
}

/** The sender of the function result of the Ethereum transaction (decoded) this item is a child of, when it names one. */
function ethereumParentSender(ctx: ItemContext): bigint | undefined {
  const { parent } = ctx;
  if (parent?.type !== ETHEREUM_TRANSACTION || !decodedEthereumTransaction({ item: parent })) return undefined;
  const sender = (parent.record.contractCreateResult ?? parent.record.contractCallResult)?.sender_id;
  return sender ? accountId(sender) : undefined;
}

export function scheduleSign(ctx: ItemContext): void {
  if (!ctx.item.successful) return;
  signatures(ctx, scheduleId(serviceBody<{ scheduleID?: PbEntityId }>(ctx).scheduleID));
}

export function scheduleDelete(ctx: ItemContext): void {
  if (!ctx.item.successful) return;
  const id = scheduleId(serviceBody<{ scheduleID?: PbEntityId }>(ctx).scheduleID);
  if (id !== 0n)
    ctx.rows.change('entity', { ...entityRow(id), deleted: true, type: 'SCHEDULE' }, ctx.item.consensusTimestamp);
}

/** The SignaturePair cases with their protobuf field numbers, which the importer stores as the type. */
const SIGNATURE_FIELDS = [
  ['contract', 2],
  ['ed25519', 3],
  ['RSA_3072', 4],
  ['ECDSA_384', 5],
  ['ECDSA_secp256k1', 6],
] as const;

/** `transaction_signature` rows: one per distinct public key prefix of the signature map. */
function signatures(ctx: ItemContext, entity: bigint): void {
  const seen = new Set<string>();
  for (const pair of ctx.item.signaturePairs) {
    const prefix = pair.pubKeyPrefix ?? new Uint8Array();
    const key = Buffer.from(prefix).toString('hex');
    if (seen.has(key)) continue;
    const found = SIGNATURE_FIELDS.find(([field]) => pair[field] !== undefined);
    if (!found) continue;
    seen.add(key);
    ctx.rows.insert('transaction_signature', {
      consensus_timestamp: ctx.item.consensusTimestamp,
      entity_id: entity || null,
      public_key_prefix: prefix,
      signature: pair[found[0]],
      type: found[1],
    });
  }
}

/** A scheduled transaction ran: its schedule records when. */
export function scheduledExecution(ctx: ItemContext): void {
  const id = scheduleId(ctx.item.record.scheduleRef);
  if (id !== 0n) ctx.rows.replace('schedule', { schedule_id: id, executed_timestamp: ctx.item.consensusTimestamp });
}
