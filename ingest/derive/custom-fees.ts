/**
 * `custom_fee` rows (token fee schedules, HIP-991 topic fees) in the jsonb shapes the importer's Jackson mapper
 * writes, every field present (null when unset): fixed `{all_collectors_are_exempt, amount, collector_account_id,
 * denominating_token_id}`, fractional `{…, numerator, denominator, minimum_amount, maximum_amount, net_of_transfers}`,
 * royalty `{…, numerator, denominator, fallback_fee: {amount, denominating_token_id}}`. A token's schedule with no fees
 * of a kind stores NULL for it; a topic's fixed fees are a list, empty without fees
 * (`TokenFeeScheduleUpdateTransactionHandler`, `ConsensusUpdateTopicTransactionHandler.updateCustomFee`).
 */
import type { PbEntityId } from '../decode/types.ts';
import { accountId, type ItemContext, nullable, tokenId } from './context.ts';

interface PbFixedFee {
  amount?: bigint;
  denominating_token_id?: PbEntityId;
}

export interface PbCustomFee {
  fixed_fee?: PbFixedFee;
  fractional_fee?: {
    fractional_amount?: { numerator?: bigint; denominator?: bigint };
    minimum_amount?: bigint;
    maximum_amount?: bigint;
    net_of_transfers?: boolean;
  };
  royalty_fee?: { exchange_value_fraction?: { numerator?: bigint; denominator?: bigint }; fallback_fee?: PbFixedFee };
  fee_collector_account_id?: PbEntityId;
  all_collectors_are_exempt?: boolean;
}

/**
 * A token's fee schedule (TokenCreate, TokenFeeScheduleUpdate). A denominating token 0.0.0 means the token itself.
 * Returns the collectors of the fees charged in the token (a fixed fee in it, every fractional fee), which a
 * TokenCreate associates with the token when its record does not list the associations.
 */
export function tokenFeeRow(ctx: ItemContext, token: bigint, fees: readonly PbCustomFee[]): Set<bigint> {
  const collectors = new Set<bigint>();
  const fixed: Record<string, unknown>[] = [];
  const fractional: Record<string, unknown>[] = [];
  const royalty: Record<string, unknown>[] = [];
  for (const fee of fees) {
    const base = {
      collector_account_id: nullable(accountId(fee.fee_collector_account_id)),
      all_collectors_are_exempt: fee.all_collectors_are_exempt ?? false,
    };
    if (fee.fixed_fee) {
      const row = fixedJson(fee.fixed_fee, base, token);
      fixed.push(row);
      if (row.denominating_token_id === token) collectors.add(base.collector_account_id ?? 0n);
    } else if (fee.fractional_fee) {
      const f = fee.fractional_fee;
      const row: Record<string, unknown> = {
        ...base,
        numerator: f.fractional_amount?.numerator ?? 0n,
        denominator: f.fractional_amount?.denominator ?? 0n,
        maximum_amount: f.maximum_amount || null,
        minimum_amount: f.minimum_amount ?? 0n,
        net_of_transfers: f.net_of_transfers ?? false,
      };
      fractional.push(row);
      collectors.add(base.collector_account_id ?? 0n);
    } else if (fee.royalty_fee) {
      const r = fee.royalty_fee;
      const row: Record<string, unknown> = {
        ...base,
        numerator: r.exchange_value_fraction?.numerator ?? 0n,
        denominator: r.exchange_value_fraction?.denominator ?? 0n,
        fallback_fee: r.fallback_fee ? fixedJson(r.fallback_fee, {}, token) : null,
      };
      royalty.push(row);
    }
  }
  // A schedule whose fees are none of the three kinds is not written (the importer's isEmptyFee check); an empty
  // schedule is, without fees.
  if (fees.length > 0 && fixed.length + fractional.length + royalty.length === 0) return collectors;
  feeChange(ctx, token, fixed.length > 0 ? fixed : null, fractional, royalty);
  return collectors;
}

/** A topic's fixed fees (HIP-991): always a list, empty without fees; a denominating token is kept as given. */
export function topicFeeRow(ctx: ItemContext, topic: bigint, fees: readonly PbCustomFee[]): void {
  const fixed = fees.flatMap((fee) =>
    fee.fixed_fee
      ? [
          fixedJson(fee.fixed_fee, {
            collector_account_id: nullable(accountId(fee.fee_collector_account_id)),
            all_collectors_are_exempt: false,
          }),
        ]
      : [],
  );
  feeChange(ctx, topic, fixed, [], []);
}

function fixedJson(fee: PbFixedFee, base: Record<string, unknown>, token?: bigint): Record<string, unknown> {
  // Jackson writes every field of the importer's FixedFee and FallbackFee: an HBAR fee's denomination is null.
  const out: Record<string, unknown> = { ...base, amount: fee.amount ?? 0n, denominating_token_id: null };
  if (fee.denominating_token_id) {
    const denomination = tokenId(fee.denominating_token_id);
    out.denominating_token_id = nullable(denomination === 0n && token !== undefined ? token : denomination);
  }
  return out;
}

function feeChange(
  ctx: ItemContext,
  entityId: bigint,
  fixed: Record<string, unknown>[] | null,
  fractional: Record<string, unknown>[],
  royalty: Record<string, unknown>[],
): void {
  ctx.rows.change(
    'custom_fee',
    {
      entity_id: entityId,
      fixed_fees: fixed,
      fractional_fees: fractional.length > 0 ? fractional : null,
      royalty_fees: royalty.length > 0 ? royalty : null,
    },
    ctx.item.consensusTimestamp,
    true,
    ['fixed_fees', 'fractional_fees', 'royalty_fees'],
  );
}
