/**
 * Transaction bytes read as the Go SDK the reference builds with reads them (hiero-sdk-go v2.78.1,
 * `TransactionFromBytes`): a TransactionList of Transactions (one per node), or one bare Transaction, each carrying a
 * SignedTransaction (body bytes and signature map) or, unsigned, the body bytes themselves. What the SDK then keeps
 * is kept here: the first body (what the transaction is), the memo of the last, the transaction ids and node
 * accounts of every body that names them, the signed transactions, and the keys that signed the first of a list.
 * Whatever the SDK refuses, or stops on, is a `TransactionBytesError`.
 */
import { publicKeyDerHex, publicKeyFromBytes } from '../keys.ts';
import {
  dataMember,
  SDK_TRANSACTION_KINDS,
  SIGNED_TRANSACTION,
  TRANSACTION,
  TRANSACTION_BODY,
  TRANSACTION_LIST,
} from './messages.ts';
import { sdkKeyText } from './sdk-key.ts';
import { type Decoded, decodeMessage, type MessageDef, splitFields, WireError } from './wire.ts';

export class TransactionBytesError extends Error {
  override readonly name = 'TransactionBytesError';
}

/** An AccountID message as the SDK holds it: shard and realm as uint64, a number or an alias. */
export interface SdkAccountId {
  readonly shard: bigint;
  readonly realm: bigint;
  readonly num: bigint;
  readonly alias?: Uint8Array;
}

/** A TransactionID as the SDK keeps it (`_TransactionIDFromProtobuf`). */
export interface SdkTransactionId {
  readonly payer: SdkAccountId;
  /** The valid start in nanoseconds since the epoch. */
  readonly validStart: bigint;
  readonly scheduled: boolean;
  readonly nonce: number;
}

export interface SignaturePair {
  readonly pubKeyPrefix: Uint8Array;
  /** The pair as it is on the wire, to write back unchanged. */
  readonly wire: Uint8Array;
}

export interface SignedEntry {
  readonly bodyBytes: Uint8Array;
  readonly pairs: readonly SignaturePair[];
  readonly useSerializedTxMessageHashAlgorithm: boolean;
  /** The SignedTransaction's unknown fields, in wire form and order (protobuf-go writes them back after the rest). */
  readonly unknown: readonly Uint8Array[];
  /** The SignedTransaction as given. */
  readonly bytes: Uint8Array;
}

export interface SdkTransaction {
  /** The field number of the first body's `data` member: 14 a transfer, 11 an account creation. */
  readonly kind: number;
  readonly body: Decoded;
  /** The last body's memo, which the SDK keeps. */
  readonly memo: string;
  /** The ids of the bodies whose payer has an account number (the SDK keeps no other), in order. */
  readonly transactionIds: readonly SdkTransactionId[];
  /** The node accounts of the bodies that name one other than 0.0.0, in order. */
  readonly nodeAccounts: readonly SdkAccountId[];
  /** The signed transactions, in order; none when the bytes carried bodies only. */
  readonly signed: readonly SignedEntry[];
  /** The keys (`String()`, their DER in hex) that had signed the first transaction of a list when it was read. */
  readonly signedBy: readonly string[];
}

const fail = (message: string): never => {
  throw new TransactionBytesError(message);
};

function decode(bytes: Uint8Array, def: MessageDef): Decoded {
  try {
    return decodeMessage(bytes, def);
  } catch (error) {
    if (error instanceof WireError) return fail(error.message);
    throw error;
  }
}

/** `_AccountIDFromProtobuf`, the parts the Construction API reads. */
export function sdkAccountId(message: Decoded | undefined): SdkAccountId {
  const shard = BigInt.asUintN(64, (message?.shardNum as bigint | undefined) ?? 0n);
  const realm = BigInt.asUintN(64, (message?.realmNum as bigint | undefined) ?? 0n);
  const alias = message?.alias as Uint8Array | undefined;
  if (alias !== undefined) return { shard, realm, num: 0n, alias };
  return { shard, realm, num: BigInt.asUintN(64, (message?.accountNum as bigint | undefined) ?? 0n) };
}

function readSigned(bytes: Uint8Array): { entry: SignedEntry; body: Decoded } {
  const message = decode(bytes, SIGNED_TRANSACTION);
  const bodyBytes = (message.bodyBytes as Uint8Array | undefined) ?? new Uint8Array();
  const pairs: SignaturePair[] = [];
  const unknown: Uint8Array[] = [];
  for (const field of splitFields(bytes)) {
    if (field.number === 2) {
      // The signature map's pairs, each kept in wire form (a map met twice is merged, as protobuf merges it).
      const map = field.bytes.subarray(lengthPrefix(field.bytes));
      for (const pair of splitFields(map)) {
        if (pair.number !== 1) continue;
        const wire = pair.bytes.subarray(lengthPrefix(pair.bytes));
        const decoded = decodeMessage(wire, { 1: { name: 'pubKeyPrefix', kind: 'bytes' } });
        pairs.push({ pubKeyPrefix: (decoded.pubKeyPrefix as Uint8Array | undefined) ?? new Uint8Array(), wire });
      }
    } else if (field.number > 3) unknown.push(field.bytes);
  }
  const useSerializedTxMessageHashAlgorithm = message.useSerializedTxMessageHashAlgorithm === true;
  const entry = { bodyBytes, pairs, useSerializedTxMessageHashAlgorithm, unknown, bytes };
  return { entry, body: decode(bodyBytes, TRANSACTION_BODY) };
}

/** Where a length-delimited field's payload starts (after its tag and length). */
function lengthPrefix(field: Uint8Array): number {
  let at = 0;
  for (let varints = 0; varints < 2; varints++) {
    while (((field[at] as number) & 0x80) !== 0) at++;
    at++;
  }
  return at;
}

/**
 * `setTransactionFields`: a body's batch key must be a key the SDK reads; a body without a transaction id stops the
 * SDK (it reads the payer of a missing id).
 */
function checkBody(body: Decoded): void {
  if (body.batchKey !== undefined && sdkKeyText(body.batchKey as Decoded) === undefined) fail('invalid batch key');
  if (body.transactionID === undefined) fail('no transaction id');
}

/** The transaction `bytes` hold, as the SDK reads it; throws `TransactionBytesError` where it cannot. */
export function readTransaction(bytes: Uint8Array): SdkTransaction {
  const list = (decode(bytes, TRANSACTION_LIST).transactionList as Decoded[] | undefined) ?? [];
  const bodies: Decoded[] = [];
  const signed: SignedEntry[] = [];
  let signedBy: string[] = [];
  if (list.length === 0) {
    const transaction = decode(bytes, TRANSACTION);
    const signedBytes = transaction.signedTransactionBytes as Uint8Array | undefined;
    if (signedBytes === undefined || signedBytes.length === 0) {
      bodies.push(decode((transaction.bodyBytes as Uint8Array | undefined) ?? new Uint8Array(), TRANSACTION_BODY));
    } else {
      const { entry, body } = readSigned(signedBytes);
      signed.push(entry);
      bodies.push(body);
    }
  } else {
    if (list.length > 1) checkSameBodies(list);
    let allSigned = true;
    list.forEach((transaction, i) => {
      const signedBytes = transaction.signedTransactionBytes as Uint8Array | undefined;
      if (signedBytes === undefined || signedBytes.length === 0) {
        allSigned = false;
        bodies.push(decode((transaction.bodyBytes as Uint8Array | undefined) ?? new Uint8Array(), TRANSACTION_BODY));
        return;
      }
      if (!allSigned) {
        // Once a body came unsigned, the SDK reads later signed transactions for form only.
        decode(signedBytes, SIGNED_TRANSACTION);
        bodies.push({});
        return;
      }
      const { entry, body } = readSigned(signedBytes);
      if (i === 0) {
        signedBy = entry.pairs.map((pair) => {
          const key = publicKeyFromBytes(pair.pubKeyPrefix);
          return key ? publicKeyDerHex(key) : fail('a signature pair names no whole key');
        });
      }
      signed.push(entry);
      bodies.push(body);
    });
  }
  for (const body of bodies) checkBody(body);
  const first = bodies[0] as Decoded;
  const kind = dataMember(first);
  if (!SDK_TRANSACTION_KINDS.has(kind)) fail('not a transaction the SDK knows');
  const transactionIds: SdkTransactionId[] = [];
  const nodeAccounts: SdkAccountId[] = [];
  for (const body of bodies) {
    const id = body.transactionID as Decoded;
    const payer = sdkAccountId(id.accountID as Decoded | undefined);
    const start = id.transactionValidStart as Decoded | undefined;
    const validStart =
      ((start?.seconds as bigint | undefined) ?? 0n) * 1_000_000_000n +
      BigInt((start?.nanos as number | undefined) ?? 0);
    if (payer.num !== 0n && payer.alias === undefined) {
      transactionIds.push({
        payer,
        validStart,
        scheduled: id.scheduled === true,
        nonce: (id.nonce as number | undefined) ?? 0,
      });
    }
    if (body.nodeAccountID !== undefined) {
      const node = sdkAccountId(body.nodeAccountID as Decoded);
      if (node.shard !== 0n || node.realm !== 0n || node.num !== 0n || node.alias !== undefined)
        nodeAccounts.push(node);
    }
  }
  const last = bodies[bodies.length - 1] as Decoded;
  return {
    kind,
    body: first,
    memo: (last.memo as string | undefined) ?? '',
    transactionIds,
    nodeAccounts,
    signed,
    signedBy,
  };
}

/**
 * `_TransactionCompare`: the transactions of a list must hold the same body but for the node account; each is read
 * from its signed transaction (an unsigned one reads as an empty body).
 */
function checkSameBodies(list: readonly Decoded[]): void {
  const normalized = list.map((transaction) => {
    const signedBytes = (transaction.signedTransactionBytes as Uint8Array | undefined) ?? new Uint8Array();
    const bodyBytes = (decode(signedBytes, SIGNED_TRANSACTION).bodyBytes as Uint8Array | undefined) ?? new Uint8Array();
    decode(bodyBytes, TRANSACTION_BODY);
    return splitFields(bodyBytes)
      .filter((field) => field.number !== 2)
      .map((field) => Array.from(field.bytes).join(','))
      .join(';');
  });
  if (normalized.some((body) => body !== normalized[0])) fail('failed to validate transaction bodies');
}
