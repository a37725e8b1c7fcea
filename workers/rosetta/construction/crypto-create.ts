/**
 * `CRYPTOCREATEACCOUNT` (rosetta/app/services/construction/crypto_create_transaction_constructor.go): one operation
 * of the payer, whose amount (at most 0) is minus the new account's initial balance, and whose metadata holds the new
 * account's `key` (hex of an ED25519 or ECDSA secp256k1 public key, raw or DER) and optionally its
 * `auto_renew_period` (seconds), `max_automatic_token_associations`, `memo` and `proxy_account_id` (read, and, as in
 * the reference's SDK, not written into the transaction). The payer signs.
 */
import type { RosettaAccount } from '../domain/account-id.ts';
import { RosettaError } from '../errors.ts';
import { goJson } from '../go-json/marshal.ts';
import { fromSdkAccountId, sdkAccountIdFromString } from './accounts.ts';
import { CRYPTO_CREATE_ACCOUNT } from './hapi/messages.ts';
import { createdKeyText } from './hapi/sdk-key.ts';
import type { TransactionData } from './hapi/transaction-build.ts';
import type { SdkTransaction } from './hapi/transaction-bytes.ts';
import type { Decoded } from './hapi/wire.ts';
import { type PublicKey, publicKeyFromString } from './keys.ts';
import { type ConstructionOperation, meshOperation } from './operations.ts';
import { checkOperations, type Parsed } from './validate-operations.ts';

export const CRYPTO_CREATE_TYPE = 'CRYPTOCREATEACCOUNT';

/** The Go SDK's default max fee of an AccountCreateTransaction: 5 hbar. */
export const CREATE_MAX_FEE = 500_000_000n;

/** The Go SDK's auto-renew period of a new account when none is set: 7,890,000 s (about 91 days). */
const DEFAULT_AUTO_RENEW_SECONDS = 7_890_000n;

const NANOS_PER_SECOND = 1_000_000_000n;

interface CreateMetadata {
  readonly autoRenewPeriod: bigint;
  readonly key: PublicKey | undefined;
  readonly maxAutomaticTokenAssociations: number;
  readonly memo: string;
}

type Field = keyof typeof FIELDS;

/** Go's case folding of field names (as ../go-json/decode.ts folds them). */
const fold = (name: string): string =>
  name
    .replace(/\u017f/g, 's')
    .replace(/\u212a/g, 'k')
    .toLowerCase();

/** A JSON value of the metadata map read into an int of `bits` as Go's decoder reads a number literal. */
function goInt(value: unknown, bits: 32 | 64): bigint | undefined | 'error' {
  if (value === null) return undefined;
  if (typeof value !== 'number') return 'error';
  const text = goJson(value);
  if (!/^-?\d+$/.test(text)) return 'error';
  const n = BigInt(text);
  const limit = 2n ** BigInt(bits - 1);
  return n < -limit || n >= limit ? 'error' : n;
}

/** Each field of the reference's `cryptoCreate` struct: how a metadata value is read into it. */
const FIELDS = {
  auto_renew_period: (value: unknown, into: Partial<Record<string, unknown>>) => {
    const n = goInt(value, 64);
    if (n === 'error') return false;
    if (n !== undefined) into.autoRenewPeriod = n;
    return true;
  },
  // types.PublicKey's UnmarshalJSON: the value's JSON, unquoted, as a key's hex.
  key: (value: unknown, into: Partial<Record<string, unknown>>) => {
    if (value === null) return true;
    const key = typeof value === 'string' ? publicKeyFromString(value) : undefined;
    into.key = key;
    return key !== undefined;
  },
  max_automatic_token_associations: (value: unknown, into: Partial<Record<string, unknown>>) => {
    const n = goInt(value, 32);
    if (n === 'error') return false;
    if (n !== undefined) into.maxAutomaticTokenAssociations = Number(n);
    return true;
  },
  memo: (value: unknown, into: Partial<Record<string, unknown>>) => {
    if (value === null) return true;
    if (typeof value !== 'string') return false;
    into.memo = value;
    return true;
  },
  // hiero.AccountID's UnmarshalJSON: the value's JSON without its first two quotes, as an account id.
  proxy_account_id: (value: unknown) =>
    value === null || sdkAccountIdFromString(goJson(value).replace('"', '').replace('"', '')) !== undefined,
} as const;

/**
 * `parseOperationMetadata`: the metadata written as JSON and read into the `cryptoCreate` struct (keys in sorted
 * order, matched exactly or ignoring case, unknown ones ignored); any value that does not read, or no key, is 126.
 */
function readCreateMetadata(metadata: Readonly<Record<string, unknown>> | undefined): CreateMetadata {
  const read: Partial<Record<string, unknown>> = {};
  const names = Object.keys(FIELDS) as Field[];
  for (const key of Object.keys(metadata ?? {}).sort()) {
    const field = names.includes(key as Field) ? (key as Field) : names.find((name) => fold(name) === fold(key));
    if (field && !FIELDS[field]((metadata as Record<string, unknown>)[key], read)) {
      throw RosettaError.of('InvalidOperationMetadata');
    }
  }
  if (read.key === undefined) throw RosettaError.of('InvalidOperationMetadata');
  return {
    autoRenewPeriod: (read.autoRenewPeriod as bigint | undefined) ?? 0n,
    key: read.key as PublicKey,
    maxAutomaticTokenAssociations: (read.maxAutomaticTokenAssociations as number | undefined) ?? 0,
    memo: (read.memo as string | undefined) ?? '',
  };
}

/** `preprocess`: one operation with an amount of at most 0 and the new account's metadata; its account signs. */
export function preprocessCreate(operations: readonly ConstructionOperation[]): {
  metadata: CreateMetadata;
  payer: RosettaAccount;
  amount: bigint;
} {
  checkOperations(operations, 1, CRYPTO_CREATE_TYPE);
  const operation = operations[0] as ConstructionOperation;
  const amount = operation.amount as bigint;
  if (amount > 0n) throw RosettaError.of('InvalidOperationsAmount');
  return { metadata: readCreateMetadata(operation.metadata), payer: operation.account as RosettaAccount, amount };
}

/** A Go `time.Duration` of `seconds` seconds (int64 nanoseconds, wrapping), back in whole seconds. */
const durationSeconds = (seconds: bigint): bigint => BigInt.asIntN(64, seconds * NANOS_PER_SECOND) / NANOS_PER_SECOND;

/** `Construct`: an AccountCreateTransaction of the key, the initial balance and the settings given. */
export function constructCreate(operations: readonly ConstructionOperation[]): {
  data: TransactionData;
  signers: RosettaAccount[];
} {
  const { metadata, payer, amount } = preprocessCreate(operations);
  return {
    data: {
      kind: CRYPTO_CREATE_ACCOUNT,
      create: {
        key: metadata.key as PublicKey,
        initialBalance: BigInt.asUintN(64, -amount),
        autoRenewPeriod:
          metadata.autoRenewPeriod > 0n ? durationSeconds(metadata.autoRenewPeriod) : DEFAULT_AUTO_RENEW_SECONDS,
        maxAutomaticTokenAssociations: metadata.maxAutomaticTokenAssociations,
        memo: metadata.memo,
      },
    },
    signers: [payer],
  };
}

/** `Parse`: the payer's operation with the new account's settings as metadata; the payer signs. */
export function parseCreate(transaction: SdkTransaction): Parsed {
  const payerId = transaction.transactionIds[0]?.payer;
  if (!payerId) throw RosettaError.of('InvalidTransaction');
  const body = transaction.body.data11 as Decoded;
  const payer = fromSdkAccountId(payerId);
  if (!payer) throw RosettaError.of('InvalidAccount');
  const key = body.key === undefined ? undefined : createdKeyText(body.key as Decoded);
  if (key === undefined) throw RosettaError.of('InvalidTransaction');
  const initialBalance = BigInt.asIntN(64, (body.initialBalance as bigint | undefined) ?? 0n);
  const renewSeconds = ((body.autoRenewPeriod as Decoded | undefined)?.seconds as bigint | undefined) ?? 0n;
  const renew = durationSeconds(renewSeconds);
  const associations = (body.maxAutomaticTokenAssociations as number | undefined) ?? 0;
  // A map in Go: its keys sorted.
  const metadata = {
    ...(BigInt.asIntN(64, renewSeconds * NANOS_PER_SECOND) !== 0n ? { auto_renew_period: renew } : {}),
    key,
    ...(associations !== 0 ? { max_automatic_token_associations: associations } : {}),
    memo: (body.memo as string | undefined) ?? '',
  };
  const operation = meshOperation({
    index: 0n,
    type: CRYPTO_CREATE_TYPE,
    account: payer,
    amount: BigInt.asIntN(64, -initialBalance),
    metadata,
  });
  return { operations: [operation], signers: [payer] };
}
