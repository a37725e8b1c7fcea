import type { TokenInfoRow } from '../../../db/queries/tokens.ts';
import { entityId, type StoredId, timestampString } from '../../format/values.ts';

/** An element of `custom_fee.fixed_fees`, `.fractional_fees` or `.royalty_fees` (jsonb; numbers may be bigint). */
type FeeJson = Record<string, unknown>;

/**
 * Fields are copied as stored: a value missing from the jsonb stays missing in the answer, as the reference
 * writes it (`minimum`, `amount`, ...).
 */
function fixedFee(fee: FeeJson) {
  return {
    all_collectors_are_exempt: fee.all_collectors_are_exempt ?? false,
    amount: fee.amount,
    collector_account_id: entityId(fee.collector_account_id as StoredId),
    denominating_token_id: entityId(fee.denominating_token_id as StoredId),
  };
}

function fractionalFee(fee: FeeJson, tokenId: string) {
  return {
    all_collectors_are_exempt: fee.all_collectors_are_exempt ?? false,
    amount: { numerator: fee.numerator, denominator: fee.denominator },
    collector_account_id: entityId(fee.collector_account_id as StoredId),
    denominating_token_id: entityId(tokenId as StoredId),
    maximum: fee.maximum_amount ?? null,
    minimum: fee.minimum_amount,
    net_of_transfers: fee.net_of_transfers ?? false,
  };
}

function royaltyFee(fee: FeeJson) {
  const fallback = fee.fallback_fee as FeeJson | null | undefined;
  // A fallback fee of amount 0 (or none) shows as null.
  const hasFallback =
    fallback?.amount !== undefined && fallback.amount !== null && BigInt(fallback.amount as number) !== 0n;
  return {
    all_collectors_are_exempt: fee.all_collectors_are_exempt ?? false,
    amount: { denominator: fee.denominator, numerator: fee.numerator },
    collector_account_id: entityId(fee.collector_account_id as StoredId),
    fallback_fee: hasFallback
      ? { amount: fallback?.amount, denominating_token_id: entityId(fallback?.denominating_token_id as StoredId) }
      : null,
  };
}

/**
 * A token's custom fees: its fixed fees, and its fractional fees (fungible tokens) or royalty fees (NFTs); null
 * when the token has no custom fee row.
 */
export function tokenCustomFees(row: TokenInfoRow) {
  if (!row.has_custom_fee) return null;
  const base = {
    created_timestamp: timestampString(row.fee_created_timestamp),
    fixed_fees: (row.fixed_fees ?? []).map(fixedFee),
  };
  return row.type === 'FUNGIBLE_COMMON'
    ? { ...base, fractional_fees: (row.fractional_fees ?? []).map((fee) => fractionalFee(fee, row.token_id)) }
    : { ...base, royalty_fees: (row.royalty_fees ?? []).map(royaltyFee) };
}
