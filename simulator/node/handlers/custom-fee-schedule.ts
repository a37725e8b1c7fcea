/**
 * Custom fee schedules as the consensus node reads them (CustomFeesValidator): a token's fixed, fractional and royalty
 * fees from TokenCreate and TokenFeeScheduleUpdate, a topic's fixed fees from ConsensusCreateTopic and
 * ConsensusUpdateTopic (HIP-991), each checked against the ledger with the node's codes; and the schedule back in the
 * HAPI shape TokenInfo and ConsensusTopicInfo report.
 */
import { accountPb, i64, tokenPb } from '../../ledger/ids.ts';
import type { CustomFee, FixedFee, Ledger, LedgerKey, Token } from '../../ledger/ledger.ts';
import { accountNumOf, numOf } from '../entity-ids.ts';
import { bigOf, ensure, type Pb } from '../handling.ts';

/** `tokens.maxCustomFeesAllowed`. */
export const MAX_CUSTOM_FEES = 10;

export const feeList = (value: unknown): Pb[] => (Array.isArray(value) ? (value as Pb[]) : []);

/** The checks that need no state: the list's length, and a kind for each fee. */
export function checkFeeListShape(fees: readonly Pb[]): void {
  ensure(fees.length <= MAX_CUSTOM_FEES, 'CUSTOM_FEES_LIST_TOO_LONG');
  for (const fee of fees)
    ensure(fee.fixed_fee || fee.fractional_fee || fee.royalty_fee, 'CUSTOM_FEE_NOT_FULLY_SPECIFIED');
}

/** The token a schedule belongs to: a live one, or (num undefined) the one a TokenCreate is making. */
export interface FeeTarget {
  readonly num: bigint | undefined;
  readonly type: Token['type'];
}

export interface ReadSchedule {
  readonly fees: CustomFee[];
  /** Collectors a TokenCreate associates with the new token (fractional fees, fixed fees in the new token). */
  readonly toAssociate: bigint[];
  /** Keys that must sign: collectors that asked for receiver signatures, and those the creation associates. */
  readonly collectorKeys: LedgerKey[];
}

/** A token's fee schedule at consensus; for a TokenCreate, `denominated 0.0.0` names the token being created. */
export function readTokenFees(ledger: Ledger, pbs: readonly Pb[], target: FeeTarget): ReadSchedule {
  const out: ReadSchedule = { fees: [], toAssociate: [], collectorKeys: [] };
  const creating = target.num === undefined;
  for (const pb of pbs) {
    const collector = collectorOf(ledger, pb.fee_collector_account_id);
    let associates = false;
    const base = { collector: collector.num, allCollectorsExempt: Boolean(pb.all_collectors_are_exempt) };
    if (pb.fixed_fee) {
      const fixed = readFixed(ledger, pb.fixed_fee as Pb, target, collector.num);
      associates = creating && fixed.denomination === 0n;
      out.fees.push({ ...base, fixed });
    } else if (pb.fractional_fee) {
      ensure(target.type === 'FUNGIBLE_COMMON', 'CUSTOM_FRACTIONAL_FEE_ONLY_ALLOWED_FOR_FUNGIBLE_COMMON');
      const fraction = (pb.fractional_fee as Pb).fractional_amount as Pb | undefined;
      const [numerator, denominator] = readFraction(fraction);
      const f = pb.fractional_fee as Pb;
      const min = bigOf(f.minimum_amount);
      const max = bigOf(f.maximum_amount);
      ensure(min >= 0n && max >= 0n, 'CUSTOM_FEE_MUST_BE_POSITIVE');
      ensure(max === 0n || max >= min, 'FRACTIONAL_FEE_MAX_AMOUNT_LESS_THAN_MIN_AMOUNT');
      if (!creating && target.num !== undefined)
        ensure(ledger.isAssociated(collector.num, target.num), 'TOKEN_NOT_ASSOCIATED_TO_FEE_COLLECTOR');
      associates = creating;
      out.fees.push({
        ...base,
        fractional: { numerator, denominator, min, max, netOfTransfers: Boolean(f.net_of_transfers) },
      });
    } else {
      const royalty = (pb.royalty_fee ?? {}) as Pb;
      ensure(target.type === 'NON_FUNGIBLE_UNIQUE', 'CUSTOM_ROYALTY_FEE_ONLY_ALLOWED_FOR_NON_FUNGIBLE_UNIQUE');
      const [numerator, denominator] = readFraction(royalty.exchange_value_fraction as Pb | undefined);
      ensure(numerator <= denominator, 'ROYALTY_FRACTION_CANNOT_EXCEED_ONE');
      const fallback = royalty.fallback_fee
        ? readFixed(ledger, royalty.fallback_fee as Pb, target, collector.num)
        : undefined;
      associates = creating && fallback?.denomination === 0n;
      out.fees.push({ ...base, royalty: { numerator, denominator, ...(fallback ? { fallback } : {}) } });
    }
    if (associates && !out.toAssociate.includes(collector.num)) out.toAssociate.push(collector.num);
    if ((associates || collector.receiverSigRequired) && collector.key) out.collectorKeys.push(collector.key);
  }
  return out;
}

/** A topic's fixed fees (HIP-991): hbar or a fungible token the collector is associated with. */
export function readTopicFees(ledger: Ledger, pbs: readonly Pb[]): CustomFee[] {
  return pbs.map((pb) => {
    const collector = collectorOf(ledger, pb.fee_collector_account_id);
    const fixed = readFixed(ledger, (pb.fixed_fee ?? {}) as Pb, undefined, collector.num);
    return { collector: collector.num, allCollectorsExempt: false, fixed };
  });
}

function collectorOf(ledger: Ledger, id: unknown) {
  const num = accountNumOf(ledger, id);
  const account = num > 0n ? ledger.accounts.get(num) : undefined;
  ensure(account && !account.deleted, 'INVALID_CUSTOM_FEE_COLLECTOR');
  return account;
}

function readFraction(fraction: Pb | undefined): [bigint, bigint] {
  const numerator = bigOf(fraction?.numerator);
  const denominator = bigOf(fraction?.denominator);
  ensure(denominator !== 0n, 'FRACTION_DIVIDES_BY_ZERO');
  ensure(numerator > 0n && denominator > 0n, 'CUSTOM_FEE_MUST_BE_POSITIVE');
  return [numerator, denominator];
}

/**
 * A fixed fee: a positive amount of hbar, or of a fungible token its collector is associated with. Denomination 0
 * (the token a TokenCreate makes) comes back as 0n, for the caller to replace with the new token's number.
 */
function readFixed(ledger: Ledger, pb: Pb, target: FeeTarget | undefined, collector: bigint): FixedFee {
  const amount = bigOf(pb.amount);
  ensure(amount > 0n, 'CUSTOM_FEE_MUST_BE_POSITIVE');
  if (!pb.denominating_token_id) return { amount };
  const denomination = numOf(pb.denominating_token_id, 'tokenNum');
  if (denomination === 0n && target && target.num === undefined) {
    ensure(target.type === 'FUNGIBLE_COMMON', 'CUSTOM_FEE_DENOMINATION_MUST_BE_FUNGIBLE_COMMON');
    return { amount, denomination };
  }
  const token = ledger.tokens.get(denomination);
  ensure(token && !token.deleted, 'INVALID_TOKEN_ID_IN_CUSTOM_FEES');
  ensure(token.type === 'FUNGIBLE_COMMON', 'CUSTOM_FEE_DENOMINATION_MUST_BE_FUNGIBLE_COMMON');
  ensure(ledger.isAssociated(collector, denomination), 'TOKEN_NOT_ASSOCIATED_TO_FEE_COLLECTOR');
  return { amount, denomination };
}

/** A schedule read at creation, its `0.0.0` denominations made the new token's. */
export function denominatedIn(fees: readonly CustomFee[], token: bigint): CustomFee[] {
  const resolve = (fixed: FixedFee): FixedFee =>
    fixed.denomination === 0n ? { amount: fixed.amount, denomination: token } : fixed;
  return fees.map((fee) => ({
    ...fee,
    ...(fee.fixed ? { fixed: resolve(fee.fixed) } : {}),
    ...(fee.royalty?.fallback ? { royalty: { ...fee.royalty, fallback: resolve(fee.royalty.fallback) } } : {}),
  }));
}

const fixedPb = (fixed: FixedFee) => ({
  amount: i64(fixed.amount),
  ...(fixed.denomination !== undefined ? { denominating_token_id: tokenPb(fixed.denomination) } : {}),
});

const fraction = (numerator: bigint, denominator: bigint) => ({
  numerator: i64(numerator),
  denominator: i64(denominator),
});

/** A token's CustomFee as TokenInfo lists it. */
export function customFeePb(fee: CustomFee): Pb {
  const kind = fee.fixed
    ? { fixed_fee: fixedPb(fee.fixed) }
    : fee.fractional
      ? {
          fractional_fee: {
            fractional_amount: fraction(fee.fractional.numerator, fee.fractional.denominator),
            minimum_amount: i64(fee.fractional.min),
            maximum_amount: i64(fee.fractional.max),
            net_of_transfers: fee.fractional.netOfTransfers,
          },
        }
      : {
          royalty_fee: {
            exchange_value_fraction: fraction(fee.royalty?.numerator ?? 0n, fee.royalty?.denominator ?? 1n),
            ...(fee.royalty?.fallback ? { fallback_fee: fixedPb(fee.royalty.fallback) } : {}),
          },
        };
  return {
    ...kind,
    fee_collector_account_id: accountPb(fee.collector),
    all_collectors_are_exempt: fee.allCollectorsExempt,
  };
}

/** A topic's FixedCustomFee as ConsensusTopicInfo lists it. */
export function fixedCustomFeePb(fee: CustomFee): Pb {
  return { fixed_fee: fixedPb(fee.fixed ?? { amount: 0n }), fee_collector_account_id: accountPb(fee.collector) };
}
