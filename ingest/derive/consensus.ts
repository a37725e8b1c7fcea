/** Topics and their messages: ConsensusCreateTopic / UpdateTopic / DeleteTopic / SubmitMessage. */
import { encodeMessage } from '../decode/encode.ts';
import type { PbEntityId, PbTransactionId } from '../decode/types.ts';
import {
  accountId,
  durationSeconds,
  entityRow,
  type ItemContext,
  renewalUpdate,
  serviceBody,
  topicId,
} from './context.ts';
import { type PbCustomFee, topicFeeRow } from './custom-fees.ts';

interface TopicBody {
  topicID?: PbEntityId;
  memo?: string | { value?: string };
  adminKey?: Uint8Array;
  submitKey?: Uint8Array;
  autoRenewPeriod?: { seconds?: bigint };
  autoRenewAccount?: PbEntityId;
  expirationTime?: unknown;
  fee_schedule_key?: Uint8Array;
  fee_exempt_key_list?: Uint8Array | Uint8Array[];
  custom_fees?:
    | { fixed_fee?: PbCustomFee['fixed_fee']; fee_collector_account_id?: PbEntityId }[]
    | { fees?: { fixed_fee?: PbCustomFee['fixed_fee']; fee_collector_account_id?: PbEntityId }[] };
}

/** Create lists exempt keys as repeated Key, update as a FeeExemptKeyList; the column stores the list message. */
function exemptKeyList(value: TopicBody['fee_exempt_key_list']): Uint8Array | null {
  if (value === undefined) return null;
  if (value instanceof Uint8Array) return value;
  if (value.length === 0) return null;
  // FeeExemptKeyList { repeated Key keys = 1 }: each key is field 1, length-delimited.
  const parts: number[] = [];
  for (const key of value) {
    parts.push(0x0a);
    let length = key.length;
    while (length > 0x7f) {
      parts.push((length & 0x7f) | 0x80);
      length >>>= 7;
    }
    parts.push(length, ...key);
  }
  return new Uint8Array(parts);
}

export function topicCreate(ctx: ItemContext): void {
  if (!ctx.item.successful) return;
  const body = serviceBody<TopicBody>(ctx);
  const id = topicId(ctx.item.record.receipt?.topicID);
  if (id === 0n) return;
  const ts = ctx.item.consensusTimestamp;
  ctx.rows.change(
    'entity',
    {
      ...entityRow(id),
      // The importer keeps a topic's keys in `topic` only: the entity's key and public key stay NULL.
      auto_renew_account_id: body.autoRenewAccount ? accountId(body.autoRenewAccount) : null,
      auto_renew_period: durationSeconds(body.autoRenewPeriod) ?? null,
      created_timestamp: ts,
      deleted: false,
      memo: typeof body.memo === 'string' ? body.memo : '',
      type: 'TOPIC',
    },
    ts,
  );
  ctx.rows.change(
    'topic',
    {
      id,
      admin_key: body.adminKey ?? null,
      created_timestamp: ts,
      // Always the serialized FeeExemptKeyList, empty bytes for no keys (ConsensusCreateTopicTransactionHandler).
      fee_exempt_key_list: exemptKeyList(body.fee_exempt_key_list) ?? new Uint8Array(),
      fee_schedule_key: body.fee_schedule_key ?? null,
      submit_key: body.submitKey ?? null,
    },
    ts,
  );
  const fees = Array.isArray(body.custom_fees) ? body.custom_fees : [];
  topicFeeRow(ctx, id, fees);
}

export function topicUpdate(ctx: ItemContext): void {
  if (!ctx.item.successful) return;
  const body = serviceBody<TopicBody>(ctx);
  const id = topicId(body.topicID);
  if (id === 0n) return;
  const ts = ctx.item.consensusTimestamp;
  // Any successful update marks the entity not deleted (the importer's entity operation UPDATE).
  const entity: Record<string, unknown> = {
    ...entityRow(id),
    deleted: false,
    type: 'TOPIC',
    ...renewalUpdate({ ...body, expiration: body.expirationTime }),
  };
  if (body.memo && typeof body.memo === 'object') entity.memo = body.memo.value ?? '';
  ctx.rows.change('entity', entity, ts);
  const topic: Record<string, unknown> = { id };
  if (body.adminKey) topic.admin_key = body.adminKey;
  if (body.submitKey) topic.submit_key = body.submitKey;
  if (body.fee_schedule_key) topic.fee_schedule_key = body.fee_schedule_key;
  if (body.fee_exempt_key_list) topic.fee_exempt_key_list = exemptKeyList(body.fee_exempt_key_list);
  ctx.rows.change('topic', topic, ts);
  if (body.custom_fees && !Array.isArray(body.custom_fees)) topicFeeRow(ctx, id, body.custom_fees.fees ?? []);
}

export function topicDelete(ctx: ItemContext): void {
  if (!ctx.item.successful) return;
  const id = topicId(serviceBody<TopicBody>(ctx).topicID);
  if (id !== 0n)
    ctx.rows.change('entity', { ...entityRow(id), deleted: true, type: 'TOPIC' }, ctx.item.consensusTimestamp);
}

interface SubmitBody {
  topicID?: PbEntityId;
  message?: Uint8Array;
  chunkInfo?: { initialTransactionID?: PbTransactionId; total?: number; number?: number };
}

/** The running hash version as the importer stores it: NULL for the current version 3, 1 for an unset one. */
const CURRENT_RUNNING_HASH_VERSION = 3n;
function runningHashVersion(version: bigint | undefined): number | null {
  if (version === CURRENT_RUNNING_HASH_VERSION) return null;
  return !version ? 1 : Number(version);
}

export function submitMessage(ctx: ItemContext): void {
  const { item } = ctx;
  if (!item.successful) return;
  const body = serviceBody<SubmitBody>(ctx);
  const receipt = item.record.receipt;
  // A block's message without a running hash is skipped by the importer (it cannot be served in order).
  if (item.fromBlockStream && !receipt?.topicRunningHash?.length) return;
  const chunk = body.chunkInfo;
  ctx.rows.insert('topic_message', {
    consensus_timestamp: item.consensusTimestamp,
    message: body.message ?? new Uint8Array(),
    running_hash: receipt?.topicRunningHash ?? new Uint8Array(),
    sequence_number: receipt?.topicSequenceNumber ?? 0n,
    running_hash_version: runningHashVersion(receipt?.topicRunningHashVersion),
    chunk_num: chunk ? (chunk.number ?? 0) : null,
    chunk_total: chunk ? (chunk.total ?? 0) : null,
    payer_account_id: item.payerAccountId,
    // The importer leaves it unset; a chunk's first transaction id is in initial_transaction_id.
    valid_start_timestamp: null,
    topic_id: topicId(body.topicID),
    initial_transaction_id: chunk?.initialTransactionID
      ? encodeMessage('proto.TransactionID', chunk.initialTransactionID)
      : null,
  });
}
