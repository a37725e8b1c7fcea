/**
 * Checks token creation and update share, as TokenCreateHandler and TokenUpdateHandler make them: text lengths, the
 * expiry (a zero second means now plus the auto-renew period, whose bounds hold when an account renews it).
 */
import { accountAt, type HtsCall } from './hts-context.ts';
import { fail } from './token-dispatch.ts';
import { type ExpiryInput, isZeroAddress } from './token-structs.ts';

/** The auto-renew period's bounds (`ledger.autoRenewPeriod.minDuration`, `…maxDuration`) and the text limits. */
const MIN_AUTO_RENEW_SECONDS = 2_592_000n;
const MAX_AUTO_RENEW_SECONDS = 8_000_001n;
export const MAX_SYMBOL_BYTES = 100;
export const MAX_NAME_BYTES = 100;
export const MAX_MEMO_BYTES = 100;
export const byteLength = (value: string) => new TextEncoder().encode(value).length;

/** The expiry a create or update sets: a zero second means now plus the auto-renew period. */
export async function expiryValues(call: HtsCall, expiry: ExpiryInput) {
  const renewAccount = isZeroAddress(expiry.autoRenewAccount)
    ? undefined
    : ((await accountAt(call, expiry.autoRenewAccount)) ?? fail('INVALID_AUTORENEW_ACCOUNT'));
  if (
    renewAccount &&
    (expiry.autoRenewPeriod < MIN_AUTO_RENEW_SECONDS || expiry.autoRenewPeriod > MAX_AUTO_RENEW_SECONDS)
  ) {
    fail('INVALID_RENEWAL_PERIOD');
  }
  const now = call.reader.block.consensusStart / 1_000_000_000n;
  return {
    expirySeconds: expiry.second > 0n ? expiry.second : now + expiry.autoRenewPeriod,
    autoRenewAccount: renewAccount?.id,
    autoRenewSeconds: expiry.autoRenewPeriod,
  };
}
