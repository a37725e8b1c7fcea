/**
 * Transaction bytes as the reference's Go SDK writes them once frozen (hiero-sdk-go v2.78.1, `FreezeWith`,
 * `ToBytes`): a TransactionList holding, per node, a Transaction whose `signedTransactionBytes` is a
 * SignedTransaction of the body bytes and a signature map (empty until signed). Messages are written as protobuf-go
 * writes them: fields by number, proto3 zeros left out, a set message written even when empty.
 */
import type { PublicKey } from '../keys.ts';
import { type CRYPTO_CREATE_ACCOUNT, CRYPTO_TRANSFER } from './messages.ts';
import type { SdkAccountId, SignedEntry } from './transaction-bytes.ts';
import { Writer } from './wire.ts';

const NANOS_PER_SECOND = 1_000_000_000n;

/** An AccountID message (`AccountID._ToProtobuf`): a number, or an alias, in its shard and realm. */
export function accountIdMessage(account: SdkAccountId): Writer {
  const writer = new Writer().int(1, account.shard).int(2, account.realm);
  return account.alias !== undefined ? writer.bytes(4, account.alias, true) : writer.int(3, account.num, true);
}

/** A protobuf Key holding one public key (`_ToProtoKey`), which is also the key's alias. */
export function keyMessage(key: PublicKey): Writer {
  return new Writer().bytes(key.curve === 'edwards25519' ? 2 : 7, key.raw, true);
}

/** A Timestamp of `nanos` since the epoch (`_TimeToProtobuf` of `time.Unix(0, nanos)`). */
function timestampMessage(nanos: bigint): Writer {
  const seconds = nanos >= 0n ? nanos / NANOS_PER_SECOND : -((-nanos + NANOS_PER_SECOND - 1n) / NANOS_PER_SECOND);
  return new Writer().int(1, seconds).int(2, nanos - seconds * NANOS_PER_SECOND);
}

export interface HbarTransfer {
  readonly account: SdkAccountId;
  readonly amount: bigint;
}

export interface CryptoCreate {
  readonly key: PublicKey;
  readonly initialBalance: bigint;
  /** Seconds; the SDK writes its default when none is set. */
  readonly autoRenewPeriod: bigint;
  readonly maxAutomaticTokenAssociations: number;
  readonly memo: string;
}

export type TransactionData =
  | { readonly kind: typeof CRYPTO_TRANSFER; readonly transfers: readonly HbarTransfer[] }
  | { readonly kind: typeof CRYPTO_CREATE_ACCOUNT; readonly create: CryptoCreate };

export interface FrozenBody {
  readonly payer: SdkAccountId;
  readonly validStartNanos: bigint;
  readonly nodeAccount: SdkAccountId;
  readonly fee: bigint;
  readonly validDurationSeconds: bigint;
  readonly memo: string;
  readonly data: TransactionData;
}

function dataMessage(data: TransactionData): Writer {
  if (data.kind === CRYPTO_TRANSFER) {
    const list = new Writer();
    for (const { account, amount } of data.transfers) {
      list.message(1, new Writer().message(1, accountIdMessage(account)).sint64(2, amount));
    }
    return new Writer().message(1, list);
  }
  const { create } = data;
  return new Writer()
    .message(1, keyMessage(create.key))
    .int(2, create.initialBalance)
    .message(9, new Writer().int(1, create.autoRenewPeriod))
    .bytes(13, create.memo)
    .int(14, create.maxAutomaticTokenAssociations);
}

/** The body bytes every signer signs. */
export function bodyBytes(body: FrozenBody): Uint8Array {
  const transactionId = new Writer()
    .message(1, timestampMessage(body.validStartNanos))
    .message(2, accountIdMessage(body.payer));
  return new Writer()
    .message(1, transactionId)
    .message(2, accountIdMessage(body.nodeAccount))
    .int(3, body.fee)
    .message(4, new Writer().int(1, body.validDurationSeconds))
    .bytes(6, body.memo)
    .message(body.data.kind, dataMessage(body.data))
    .finish();
}

/** A SignedTransaction as protobuf-go writes it back: body, signature map (set, maybe empty), flag, unknown fields. */
export function signedTransactionBytes(
  entry: Omit<SignedEntry, 'bytes'>,
  added: readonly Uint8Array[] = [],
): Uint8Array {
  const map = new Writer();
  for (const pair of [...entry.pairs.map((p) => p.wire), ...added]) map.message(1, pair);
  const writer = new Writer()
    .bytes(1, entry.bodyBytes)
    .message(2, map)
    .bool(3, entry.useSerializedTxMessageHashAlgorithm);
  for (const field of entry.unknown) writer.raw(field);
  return writer.finish();
}

/** A SignaturePair of an ED25519 key (`_ToSignaturePairProtobuf`): the whole key as its prefix. */
export function ed25519SignaturePair(publicKey: Uint8Array, signature: Uint8Array): Uint8Array {
  return new Writer().bytes(1, publicKey).bytes(3, signature, true).finish();
}

/** The TransactionList of one Transaction per signed transaction (`ToBytes` of a frozen transaction). */
export function transactionListBytes(signedTransactions: readonly Uint8Array[]): Uint8Array {
  const list = new Writer();
  for (const signed of signedTransactions) list.message(1, new Writer().bytes(5, signed, true));
  return list.finish();
}

/** The Transaction a node is sent: the signed transaction it is for. */
export function transactionBytes(signedTransaction: Uint8Array): Uint8Array {
  return new Writer().bytes(5, signedTransaction, true).finish();
}
