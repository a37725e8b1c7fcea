/**
 * What `/construction/payloads` reads from its metadata (construction_service.go): the node the transaction is for
 * (`node_account_id`), when it is valid (`valid_until_nanos`, else `valid_start_nanos` and `valid_duration`), its
 * memo, and, for a payer named by alias, the payer's account id (`account_map`, which `/construction/metadata`
 * resolves).
 */
import type { RosettaAccount } from '../domain/account-id.ts';
import { parseGoInt64 } from '../domain/entity-id.ts';
import { RosettaError } from '../errors.ts';
import { accountText, sdkAccountIdFromString, toSdkAccountId } from './accounts.ts';
import type { SdkAccountId } from './hapi/transaction-bytes.ts';

export const MAX_VALID_DURATION_SECONDS = 180n;
const NANOS_PER_SECOND = 1_000_000_000n;
const MAX_VALID_DURATION_NANOS = MAX_VALID_DURATION_SECONDS * NANOS_PER_SECOND;

type Metadata = Readonly<Record<string, unknown>> | undefined;

/** `getTransactionNodeAccountId`: present (141), a string (124), an account id (102). */
export function nodeAccountOf(metadata: Metadata): SdkAccountId {
  if (!metadata || !('node_account_id' in metadata)) throw RosettaError.of('MissingNodeAccountIdMetadata');
  const value = metadata.node_account_id;
  if (typeof value !== 'string') throw RosettaError.of('InvalidArgument');
  const account = sdkAccountIdFromString(value);
  if (!account) throw RosettaError.of('InvalidAccount');
  return account;
}

/** `getIntMetadataValue`: absent or null is 0; else a string of a non-negative int64 (124). */
function intOf(metadata: Metadata, key: string): bigint {
  const value = metadata?.[key];
  if (value === undefined || value === null) return 0n;
  const n = typeof value === 'string' ? parseGoInt64(value) : undefined;
  if (n === undefined || n < 0n) throw RosettaError.of('InvalidArgument');
  return n;
}

/**
 * `getTransactionTimestampProperty`: valid for 180 s up to `valid_until_nanos` when it is there (even null), else
 * for `valid_duration` seconds (0 to 180; 0 is 180) from `valid_start_nanos` (0: now, less the SDK's 8–13 s).
 */
export function validityOf(metadata: Metadata): { durationSeconds: bigint; startNanos: bigint } {
  if (metadata && 'valid_until_nanos' in metadata) {
    const startNanos = intOf(metadata, 'valid_until_nanos') - MAX_VALID_DURATION_NANOS;
    if (startNanos <= 0n) throw RosettaError.of('InvalidArgument');
    return { durationSeconds: MAX_VALID_DURATION_SECONDS, startNanos };
  }
  const durationSeconds = intOf(metadata, 'valid_duration');
  if (durationSeconds > MAX_VALID_DURATION_SECONDS) throw RosettaError.of('InvalidArgument');
  return {
    durationSeconds: durationSeconds === 0n ? MAX_VALID_DURATION_SECONDS : durationSeconds,
    startNanos: intOf(metadata, 'valid_start_nanos'),
  };
}

/** `TransactionIDGenerate`: a valid start 8 to 13 seconds before now, so that a node's clock ahead cannot refuse it. */
export function generatedValidStart(nowNanos: bigint): bigint {
  const jitter = crypto.getRandomValues(new BigUint64Array(1))[0] as bigint;
  return nowNanos - 8n * NANOS_PER_SECOND - (jitter % (5n * NANOS_PER_SECOND));
}

/** `transactionSetMemo`: none for absent or null, else a string (139). */
export function memoOf(metadata: Metadata): string {
  const memo = metadata?.memo;
  if (memo === undefined || memo === null) return '';
  if (typeof memo !== 'string') throw RosettaError.of('InvalidTransactionMemo');
  return memo;
}

/**
 * `getSdkPayerAccountId`: a numbered payer as it is; an aliased one through `account_map` (`alias:shard.realm.num`
 * pairs separated by commas, the first whose text starts with the alias), which must name a numbered account (100).
 */
export function payerOf(payer: RosettaAccount, metadata: Metadata): SdkAccountId {
  if (payer.kind === 'id') return toSdkAccountId(payer);
  const map = metadata?.account_map;
  if (typeof map !== 'string') throw RosettaError.of('AccountNotFound');
  const alias = accountText(payer);
  const entry = map.split(',').find((pair) => pair.startsWith(alias));
  if (entry === undefined) throw RosettaError.of('AccountNotFound');
  const id = sdkAccountIdFromString(entry.split(':')[1] ?? '');
  if (!id) throw RosettaError.of('InvalidAccount');
  if (id.num === 0n) throw RosettaError.of('AccountNotFound');
  return id;
}
