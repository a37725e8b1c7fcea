/**
 * `custom_fee` rows (token fee schedules, HIP-991 topic fees) in the reference's jsonb shapes: fixed
 * `{amount, collector_account_id, denominating_token_id?, all_collectors_are_exempt}`, fractional
 * `{numerator, denominator, minimum_amount, maximum_amount?, net_of_transfers?, …}`, royalty
 * `{numerator, denominator, fallback_fee?, …}`. A schedule with no fees of a kind stores NULL for it.
 */
import type { PbEntityId } from '../decode/types.ts';
import { accountId, type ItemContext, tokenId } from './context.ts';

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
 * `entityId` is the token or topic; `createdToken` resolves a denominating token 0.0.0, which means "the
 * token being created".
 */
export function customFeeRow(
  ctx: ItemContext,
  entityId: bigint,
  fees: readonly PbCustomFee[],
  createdToken?: bigint,
): void {
  const fixed: Record<string, unknown>[] = [];
  const fractional: Record<string, unknown>[] = [];
  const royalty: Record<string, unknown>[] = [];
  const fixedJson = (fee: PbFixedFee, base: Record<string, unknown>) => {
    const out: Record<string, unknown> = { ...base, amount: fee.amount ?? 0n };
    if (fee.denominating_token_id) {
      const token = tokenId(fee.denominating_token_id);
      out.denominating_token_id = token === 0n && createdToken ? createdToken : token;
    }
    return out;
  };
  for (const fee of fees) {
    const base = {
      collector_account_id: accountId(fee.fee_collector_account_id),
      all_collectors_are_exempt: fee.all_collectors_are_exempt ?? false,
    };
    if (fee.fixed_fee) fixed.push(fixedJson(fee.fixed_fee, base));
    else if (fee.fractional_fee) {
      const f = fee.fractional_fee;
      const row: Record<string, unknown> = {
        ...base,
        numerator: f.fractional_amount?.numerator ?? 0n,
        denominator: f.fractional_amount?.denominator ?? 0n,
        minimum_amount: f.minimum_amount ?? 0n,
        net_of_transfers: f.net_of_transfers ?? false,
      };
      if (f.maximum_amount) row.maximum_amount = f.maximum_amount;
      fractional.push(row);
    } else if (fee.royalty_fee) {
      const r = fee.royalty_fee;
      const row: Record<string, unknown> = {
        ...base,
        numerator: r.exchange_value_fraction?.numerator ?? 0n,
        denominator: r.exchange_value_fraction?.denominator ?? 0n,
      };
      if (r.fallback_fee) {
        const { collector_account_id: _c, all_collectors_are_exempt: _a, ...fallback } = fixedJson(r.fallback_fee, {});
        row.fallback_fee = fallback;
      }
      royalty.push(row);
    }
  }
  ctx.rows.change(
    'custom_fee',
    {
      entity_id: entityId,
      fixed_fees: fixed.length > 0 ? fixed : null,
      fractional_fees: fractional.length > 0 ? fractional : null,
      royalty_fees: royalty.length > 0 ? royalty : null,
    },
    ctx.item.consensusTimestamp,
    true,
    ['fixed_fees', 'fractional_fees', 'royalty_fees'],
  );
}
