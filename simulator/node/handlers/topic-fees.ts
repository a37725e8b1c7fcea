/**
 * HIP-991 topics: a fee schedule key, fixed custom fees a submitter pays to each collector, and keys whose signature
 * exempts a submission from them. Read from ConsensusCreateTopic and ConsensusUpdateTopic with the node's codes, and
 * charged on ConsensusSubmitMessage within the payer's `max_custom_fees` limits.
 */
import { accountPb, i64, tokenPb } from '../../ledger/ids.ts';
import type { CustomFee, Ledger, LedgerKey, TopicSettings } from '../../ledger/ledger.ts';
import { HbarTransfers, TokenTransfers } from '../../network/transfers.ts';
import { accountNumOf, numOf } from '../entity-ids.ts';
import { bigOf, ensure, type Pb } from '../handling.ts';
import type { Signatures } from '../signatures.ts';
import { checkFeeListShape, feeList, readTopicFees } from './custom-fee-schedule.ts';
import { validKey } from './token-keys.ts';

/** `topics.maxEntriesForFeeExemptKeyList`. */
const MAX_EXEMPT_KEYS = 10;

const keyList = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The fee-exempt keys of a body: valid, distinct, at most ten. */
export function readExemptKeys(pbs: readonly unknown[]): LedgerKey[] {
  ensure(pbs.length <= MAX_EXEMPT_KEYS, 'MAX_ENTRIES_FOR_FEE_EXEMPT_KEY_LIST_EXCEEDED');
  const keys = pbs.map((pb) => validKey(pb, 'INVALID_KEY_IN_FEE_EXEMPT_KEY_LIST'));
  const distinct = new Set(keys.map((key) => JSON.stringify(key, (_, v) => (v instanceof Uint8Array ? [...v] : v))));
  ensure(distinct.size === keys.length, 'FEE_EXEMPT_KEY_LIST_CONTAINS_DUPLICATED_KEYS');
  return keys;
}

/** A create body's HIP-991 fields checked without state (precheck). */
export function checkTopicFeeShape(data: Pb): void {
  if (data.fee_schedule_key) validKey(data.fee_schedule_key, 'INVALID_CUSTOM_FEE_SCHEDULE_KEY');
  readExemptKeys(keyList(data.fee_exempt_key_list));
  checkFeeListShape(feeList(data.custom_fees).map((fee) => ({ fixed_fee: fee.fixed_fee })));
}

/** A ConsensusCreateTopic's HIP-991 settings, checked against the ledger. */
export function topicFeeSettings(
  ledger: Ledger,
  data: Pb,
): Pick<TopicSettings, 'feeScheduleKey' | 'customFees' | 'feeExemptKeys'> {
  const fees = readTopicFees(ledger, feeList(data.custom_fees));
  const exempt = readExemptKeys(keyList(data.fee_exempt_key_list));
  return {
    ...(data.fee_schedule_key
      ? { feeScheduleKey: validKey(data.fee_schedule_key, 'INVALID_CUSTOM_FEE_SCHEDULE_KEY') }
      : {}),
    ...(fees.length > 0 ? { customFees: fees } : {}),
    ...(exempt.length > 0 ? { feeExemptKeys: exempt } : {}),
  };
}

/** A body's `max_custom_fees`: no denomination twice for one account (precheck). */
export function checkFeeLimits(body: Pb): void {
  for (const limit of feeList(body.max_custom_fees)) {
    const denominations = feeList(limit.fees).map((fee) => String(numOf(fee.denominating_token_id, 'tokenNum')));
    ensure(new Set(denominations).size === denominations.length, 'DUPLICATE_DENOMINATION_IN_MAX_CUSTOM_FEE_LIST');
  }
}

export interface TopicCharges {
  readonly hbar: HbarTransfers;
  readonly tokens: TokenTransfers;
  readonly assessed: Pb[];
}

/**
 * What a submission pays the topic's collectors: nothing when a fee-exempt key signed it; each fee a collector would
 * pay itself is skipped. With limits in the body, every fee must have one in its denomination that it stays within.
 */
export function topicCharges(
  ledger: Ledger,
  settings: TopicSettings | undefined,
  payer: bigint,
  fee: bigint,
  signatures: Signatures,
  body: Pb,
): TopicCharges {
  const out: TopicCharges = { hbar: new HbarTransfers(), tokens: new TokenTransfers(), assessed: [] };
  const fees = (settings?.customFees ?? []).filter((custom) => custom.collector !== payer);
  if (fees.length === 0) return out;
  if ((settings?.feeExemptKeys ?? []).some((key) => signatures.satisfies(key))) return out;
  const limits = feeList(body.max_custom_fees).filter((limit) => accountNumOf(ledger, limit.account_id) === payer);
  const limited = limits.length > 0;
  const limitOf = (custom: CustomFee) => {
    const denomination = custom.fixed?.denomination ?? 0n;
    const match = limits
      .flatMap((limit) => feeList(limit.fees))
      .find((limitFee) => numOf(limitFee.denominating_token_id, 'tokenNum') === denomination);
    return match ? bigOf(match.amount) : undefined;
  };
  let hbarDue = 0n;
  for (const custom of fees) {
    const fixed = custom.fixed;
    if (!fixed) continue;
    if (limited) {
      const limit = limitOf(custom);
      ensure(limit !== undefined, 'NO_VALID_MAX_CUSTOM_FEE');
      ensure(fixed.amount <= limit, 'MAX_CUSTOM_FEE_LIMIT_EXCEEDED');
    }
    if (fixed.denomination === undefined) {
      hbarDue += fixed.amount;
      out.hbar.add(payer, -fixed.amount).add(custom.collector, fixed.amount);
    } else {
      ensure(ledger.isAssociated(payer, fixed.denomination), 'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
      ensure(ledger.isAssociated(custom.collector, fixed.denomination), 'TOKEN_NOT_ASSOCIATED_TO_FEE_COLLECTOR');
      out.tokens.add(fixed.denomination, payer, -fixed.amount).add(fixed.denomination, custom.collector, fixed.amount);
    }
    out.assessed.push({
      amount: i64(fixed.amount),
      ...(fixed.denomination !== undefined ? { token_id: tokenPb(fixed.denomination) } : {}),
      fee_collector_account_id: accountPb(custom.collector),
      effective_payer_account_id: [accountPb(payer)],
    });
  }
  ensure(ledger.account(payer).balance - fee >= hbarDue, 'INSUFFICIENT_PAYER_BALANCE_FOR_CUSTOM_FEE');
  for (const [token, account, amount] of out.tokens.fungibleDeltas())
    if (amount < 0n)
      ensure(ledger.tokenBalance(account, token) + amount >= 0n, 'INSUFFICIENT_PAYER_BALANCE_FOR_CUSTOM_FEE');
  return out;
}
