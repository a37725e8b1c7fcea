/**
 * One transaction of a record file as the derivation sees it: the decoded body and record, the type (the
 * TransactionBody field number of its service body, as `transaction.type` stores it) and the facts every
 * table needs (consensus timestamp, payer, status).
 */
import type protobuf from 'protobufjs';
import { hapi } from '../../proto/hapi.ts';
import { FormatError } from './byte-reader.ts';
import { idOf, timestampNanos } from './ids.ts';
import { toPlain } from './plain.ts';
import type { RawItem } from './record-file.ts';
import type { PbSignaturePair, PbTransactionBody, PbTransactionRecord } from './types.ts';

export interface RecordItem {
  /** Position in the record file, from 0. */
  readonly index: number;
  readonly consensusTimestamp: bigint;
  readonly type: number;
  /** The service body's field name (`cryptoTransfer`, `tokenCreation`, …), undefined when unknown. */
  readonly bodyName: string | undefined;
  readonly body: PbTransactionBody;
  readonly record: PbTransactionRecord;
  /** The Transaction's bodyBytes, kept to store ScheduleCreate bodies and hash inner transactions. */
  readonly bodyBytes: Uint8Array;
  readonly signaturePairs: readonly PbSignaturePair[];
  readonly payerAccountId: bigint;
  readonly status: number;
  readonly successful: boolean;
  readonly parentConsensusTimestamp: bigint | undefined;
}

const SUCCESS = 22;
const FEE_SCHEDULE_FILE_PART_UPLOADED = 104;
const SUCCESS_BUT_MISSING_EXPECTED_OPERATION = 220;

interface DecodedTransaction {
  signedTransactionBytes?: Uint8Array;
  bodyBytes?: Uint8Array;
  body?: protobuf.Message;
  sigMap?: protobuf.Message;
}

function asMessage(value: Uint8Array | protobuf.Message, type: protobuf.Type): protobuf.Message {
  return value instanceof Uint8Array ? type.decode(value) : value;
}

export function decodeRecordItem(raw: RawItem, index: number): RecordItem {
  const types = hapi();
  try {
    const transaction = asMessage(raw.transaction, types.Transaction) as unknown as DecodedTransaction;
    let bodyBytes: Uint8Array | undefined;
    let sigMap: protobuf.Message | undefined = transaction.sigMap;
    if (transaction.signedTransactionBytes && transaction.signedTransactionBytes.length > 0) {
      const signed = types.SignedTransaction.decode(
        transaction.signedTransactionBytes,
      ) as unknown as DecodedTransaction;
      bodyBytes = signed.bodyBytes;
      sigMap = signed.sigMap;
    } else if (transaction.bodyBytes && transaction.bodyBytes.length > 0) {
      bodyBytes = transaction.bodyBytes;
    } else if (transaction.body) {
      bodyBytes = types.TransactionBody.encode(transaction.body).finish();
    }
    if (!bodyBytes) throw new FormatError('transaction has no body');
    const bodyMessage = types.TransactionBody.decode(bodyBytes);
    const body = toPlain(bodyMessage) as PbTransactionBody;
    const record = toPlain(asMessage(raw.record, types.TransactionRecord)) as PbTransactionRecord;
    const sigPairs = ((sigMap ? toPlain(sigMap) : undefined) as { sigPair?: PbSignaturePair[] } | undefined)?.sigPair;
    const service = serviceBodyOf(bodyMessage, types.TransactionBody);
    const status = record.receipt?.status ?? 0;
    const payer = idOf(body.transactionID?.accountID ?? record.transactionID?.accountID, 'accountNum');
    return {
      index,
      consensusTimestamp: timestampNanos(record.consensusTimestamp),
      type: service?.id ?? 0,
      bodyName: service?.name,
      body,
      record,
      bodyBytes,
      signaturePairs: sigPairs ?? [],
      payerAccountId: payer,
      status,
      successful:
        status === SUCCESS ||
        status === FEE_SCHEDULE_FILE_PART_UPLOADED ||
        status === SUCCESS_BUT_MISSING_EXPECTED_OPERATION,
      parentConsensusTimestamp: record.parent_consensus_timestamp
        ? timestampNanos(record.parent_consensus_timestamp)
        : undefined,
    };
  } catch (error) {
    if (error instanceof FormatError) throw error;
    throw new FormatError(`item ${index}: ${(error as Error).message}`);
  }
}

function serviceBodyOf(body: protobuf.Message, type: protobuf.Type): protobuf.Field | undefined {
  const oneof = type.oneofs.data;
  if (!oneof) return undefined;
  for (const field of oneof.fieldsArray) {
    if (Object.hasOwn(body, field.name)) return field;
  }
  return undefined;
}

/** Decodes a serialized TransactionBody (ScheduleCreate's scheduled body, atomic batch inner bodies). */
export function decodeBody(bytes: Uint8Array): { body: PbTransactionBody; type: number } {
  const types = hapi();
  const message = types.TransactionBody.decode(bytes);
  return { body: toPlain(message) as PbTransactionBody, type: serviceBodyOf(message, types.TransactionBody)?.id ?? 0 };
}
