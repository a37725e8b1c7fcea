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
import { decodePlain } from './plain-decoder.ts';
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
  /** Block streams only (RawItem). */
  readonly congestionPricingMultiplier: bigint | undefined;
  /** Built from a block stream rather than read from a record file. */
  readonly fromBlockStream: boolean;
}

const SUCCESS = 22;
const FEE_SCHEDULE_FILE_PART_UPLOADED = 104;
const SUCCESS_BUT_MISSING_EXPECTED_OPERATION = 220;

interface DecodedTransaction {
  signedTransactionBytes?: Uint8Array;
  bodyBytes?: Uint8Array;
  /** Deprecated: the body as a message (raw bytes from the plain decoder, which leaves it undecoded). */
  body?: protobuf.Message | Uint8Array;
  sigMap?: unknown;
}

/** The body, record and signatures of an item, decoded plain (plain.ts). */
interface ItemParts {
  bodyBytes: Uint8Array;
  body: PbTransactionBody;
  record: PbTransactionRecord;
  sigMap: unknown;
}

/**
 * The body bytes and signature map of a Transaction, from whichever form it has (signedTransactionBytes,
 * bodyBytes, or the deprecated body message), with the decoding and encoding of the caller's representation.
 */
function bodyAndSignatures(
  transaction: DecodedTransaction,
  decodeSigned: (bytes: Uint8Array) => DecodedTransaction,
  encodeBody: (body: protobuf.Message | Uint8Array) => Uint8Array,
): { bodyBytes: Uint8Array; sigMap: unknown } {
  let bodyBytes: Uint8Array | undefined;
  let sigMap = transaction.sigMap;
  if (transaction.signedTransactionBytes && transaction.signedTransactionBytes.length > 0) {
    const signed = decodeSigned(transaction.signedTransactionBytes);
    bodyBytes = signed.bodyBytes;
    sigMap = signed.sigMap;
  } else if (transaction.bodyBytes && transaction.bodyBytes.length > 0) {
    bodyBytes = transaction.bodyBytes;
  } else if (transaction.body) {
    bodyBytes = encodeBody(transaction.body);
  }
  if (!bodyBytes) throw new FormatError('transaction has no body');
  return { bodyBytes, sigMap };
}

/** Record stream bytes → plain objects in one pass (plain-decoder.ts). */
function decodeBytes(transactionBytes: Uint8Array, recordBytes: Uint8Array): ItemParts {
  const types = hapi();
  const { bodyBytes, sigMap } = bodyAndSignatures(
    decodePlain(types.Transaction, transactionBytes) as DecodedTransaction,
    (bytes) => decodePlain(types.SignedTransaction, bytes) as DecodedTransaction,
    // The plain decoder leaves the deprecated body raw; re-encoded as the message path does, the stored bytes
    // are the canonical encoding.
    (raw) => types.TransactionBody.encode(types.TransactionBody.decode(raw as Uint8Array)).finish(),
  );
  const body = decodePlain(types.TransactionBody, bodyBytes) as PbTransactionBody;
  const record = decodePlain(types.TransactionRecord, recordBytes) as unknown as PbTransactionRecord;
  return { bodyBytes, body, record, sigMap };
}

function asMessage(value: Uint8Array | protobuf.Message, type: protobuf.Type): protobuf.Message {
  return value instanceof Uint8Array ? type.decode(value) : value;
}

/** Items built from block streams arrive as protobufjs messages. */
function decodeMessages(raw: RawItem): ItemParts {
  const types = hapi();
  const { bodyBytes, sigMap } = bodyAndSignatures(
    asMessage(raw.transaction, types.Transaction) as unknown as DecodedTransaction,
    (bytes) => types.SignedTransaction.decode(bytes) as unknown as DecodedTransaction,
    (message) => types.TransactionBody.encode(message as protobuf.Message).finish(),
  );
  const body = toPlain(types.TransactionBody.decode(bodyBytes)) as PbTransactionBody;
  const record = toPlain(asMessage(raw.record, types.TransactionRecord)) as PbTransactionRecord;
  return { bodyBytes, body, record, sigMap: sigMap ? toPlain(sigMap) : undefined };
}

export function decodeRecordItem(raw: RawItem, index: number): RecordItem {
  try {
    const { bodyBytes, body, record, sigMap } =
      raw.transaction instanceof Uint8Array && raw.record instanceof Uint8Array
        ? decodeBytes(raw.transaction, raw.record)
        : decodeMessages(raw);
    const sigPairs = (sigMap as { sigPair?: PbSignaturePair[] } | undefined)?.sigPair;
    const service = serviceBodyOf(body, hapi().TransactionBody);
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
      congestionPricingMultiplier: raw.congestionPricingMultiplier,
      fromBlockStream: raw.congestionPricingMultiplier !== undefined,
    };
  } catch (error) {
    if (error instanceof FormatError) throw error;
    throw new FormatError(`item ${index}: ${(error as Error).message}`);
  }
}

/** The set field of the body's `data` oneof (plain objects and messages both own only their set fields). */
function serviceBodyOf(body: object, type: protobuf.Type): protobuf.Field | undefined {
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
  const body = decodePlain(types.TransactionBody, bytes);
  return { body: body as PbTransactionBody, type: serviceBodyOf(body, types.TransactionBody)?.id ?? 0 };
}
