import { javaBadRequest } from '../../../params/java/errors.ts';
import { bytesField, type Fields, fieldCount, messageField, readFields, varintField, WireError } from './wire.ts';

/** What a fee estimate needs of a submitted `Transaction`. */
export interface SubmittedTransaction {
  /** The `TransactionBody`'s fields. */
  body: Fields;
  /** Signature pairs in its signature map (counted, never verified). */
  signatures: number;
  /** Size of the whole `Transaction` as sent. */
  bytes: number;
  /** The body's `high_volume` flag (HIP-1313): the sender accepts high-volume pricing. */
  highVolume: boolean;
}

export const UNABLE_TO_PARSE = 'Unable to parse transaction';

// Transaction
const TX_SIG_MAP = 3;
const TX_BODY_BYTES = 4;
const TX_SIGNED_TRANSACTION_BYTES = 5;
// SignedTransaction
const SIGNED_BODY_BYTES = 1;
const SIGNED_SIG_MAP = 2;
// SignatureMap
const SIG_PAIR = 1;

/** `TransactionBody.high_volume` (HIP-1313). */
const BODY_HIGH_VOLUME = 1002;

function signatureCount(sigMap: Fields | undefined): number {
  if (!sigMap) return 0;
  // each pair must itself be a well-formed message
  for (const value of sigMap.get(SIG_PAIR) ?? []) {
    if (value.wire !== 2) throw new WireError('wrong wire type');
    readFields(value.bytes);
  }
  return fieldCount(sigMap, SIG_PAIR);
}

/**
 * Reads a `Transaction` in its modern form (`signedTransactionBytes`: a `SignedTransaction` holding the body and
 * the signatures) or its legacy one (`bodyBytes` and `sigMap` directly); the modern form wins when both are set.
 * Throws the reference's 400s for bytes that are not such a message or hold no body.
 */
export function readTransaction(bytes: Uint8Array): SubmittedTransaction {
  try {
    const transaction = readFields(bytes);
    const signed = bytesField(transaction, TX_SIGNED_TRANSACTION_BYTES);
    const legacyBody = bytesField(transaction, TX_BODY_BYTES);
    let bodyBytes: Uint8Array;
    let signatures: number;
    if (signed && signed.length > 0) {
      const signedTransaction = readFields(signed);
      bodyBytes = bytesField(signedTransaction, SIGNED_BODY_BYTES) ?? new Uint8Array();
      signatures = signatureCount(messageField(signedTransaction, SIGNED_SIG_MAP));
    } else if (legacyBody && legacyBody.length > 0) {
      bodyBytes = legacyBody;
      signatures = signatureCount(messageField(transaction, TX_SIG_MAP));
    } else {
      throw javaBadRequest('Transaction must contain body bytes or signed transaction bytes');
    }
    const body = readFields(bodyBytes);
    return { body, signatures, bytes: bytes.length, highVolume: varintField(body, BODY_HIGH_VOLUME) !== 0n };
  } catch (error) {
    if (error instanceof WireError) throw javaBadRequest(UNABLE_TO_PARSE);
    throw error;
  }
}
