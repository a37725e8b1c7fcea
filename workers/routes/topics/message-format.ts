import type { TopicMessageRow } from '../../../db/queries/topics-messages.ts';
import { ApiError } from '../../errors.ts';
import { fields } from '../../format/protobuf-reader.ts';
import { base64, entityId, timestampString } from '../../format/values.ts';
import { encodeEntityId, formatEntityId } from '../../params/entity-id.ts';

/** Block streams carry no running hash version; the reference reports the latest one. */
const DEFAULT_RUNNING_HASH_VERSION = 3;

const UTF8_ENCODING = /^utf-?8$/;
const utf8 = new TextDecoder();

/** `encoding=utf-8` (or `utf8`, any case) writes messages as text; anything else as base64. */
export const isUtf8Encoding = (encoding: string | undefined): boolean =>
  encoding !== undefined && UTF8_ENCODING.test(encoding.toLowerCase());

interface TransactionIdJson {
  account_id: string | null;
  nonce: number | null;
  scheduled: boolean | null;
  transaction_valid_start: string;
}

/** One topic message as the API's TopicMessage object. */
export function formatTopicMessage(row: TopicMessageRow, utf8Text = false) {
  return {
    chunk_info:
      row.chunk_num === null
        ? null
        : { initial_transaction_id: initialTransactionId(row), number: row.chunk_num, total: row.chunk_total },
    consensus_timestamp: timestampString(row.consensus_timestamp),
    message: utf8Text ? utf8.decode(row.message) : base64(row.message),
    payer_account_id: entityId(row.payer_account_id),
    running_hash: base64(row.running_hash),
    running_hash_version: row.running_hash_version ?? DEFAULT_RUNNING_HASH_VERSION,
    sequence_number: BigInt(row.sequence_number),
    topic_id: entityId(row.topic_id),
  };
}

/**
 * The transaction id of a chunked message's first chunk: decoded from the stored HAPI TransactionID when there is
 * one (proto3 defaults: nonce 0, scheduled false), else the payer and valid start of this message (nonce and
 * scheduled unknown).
 */
function initialTransactionId(row: TopicMessageRow): TransactionIdJson {
  if (row.initial_transaction_id === null) {
    return {
      account_id: entityId(row.payer_account_id),
      nonce: null,
      scheduled: null,
      transaction_valid_start: timestampString(row.valid_start_timestamp) ?? '',
    };
  }
  return decodeTransactionId(row.initial_transaction_id);
}

/** TransactionID: transactionValidStart = 1 (Timestamp: seconds = 1, nanos = 2), accountID = 2, scheduled = 3, nonce = 4. */
function decodeTransactionId(bytes: Uint8Array): TransactionIdJson {
  let validStart: Uint8Array | undefined;
  let account: Uint8Array | undefined;
  let scheduled = false;
  let nonce = 0;
  for (const field of fields(bytes)) {
    if ('bytes' in field) {
      if (field.number === 1) validStart = field.bytes;
      else if (field.number === 2) account = field.bytes;
    } else if (field.number === 3) scheduled = field.varint !== 0n;
    else if (field.number === 4) nonce = Number(BigInt.asIntN(32, field.varint));
  }
  // The reference fails on a TransactionID without these parts.
  if (!validStart || !account) throw ApiError.internal(new Error('incomplete initial_transaction_id'));
  let seconds = 0n;
  let nanos = 0n;
  for (const field of fields(validStart)) {
    if (!('varint' in field)) continue;
    if (field.number === 1) seconds = BigInt.asIntN(64, field.varint);
    else if (field.number === 2) nanos = BigInt.asIntN(32, field.varint);
  }
  let shard = 0n;
  let realm = 0n;
  let num = 0n;
  for (const field of fields(account)) {
    if (!('varint' in field)) continue;
    if (field.number === 1) shard = BigInt.asIntN(64, field.varint);
    else if (field.number === 2) realm = BigInt.asIntN(64, field.varint);
    else if (field.number === 3) num = BigInt.asIntN(64, field.varint);
  }
  return {
    account_id: formatEntityId(encodeEntityId({ shard, realm, num })),
    nonce,
    scheduled,
    transaction_valid_start: `${seconds}.${nanos.toString().padStart(9, '0')}`,
  };
}
