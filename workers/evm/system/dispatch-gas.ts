/**
 * The gas of a dispatch priced from its synthetic body: SystemContractGasCalculator's `gasRequirement`, the larger of
 * the minimum (canonical) price and the body's HAPI fee under the fee schedule and exchange rate of the call's block.
 */
import type { LedgerReader } from '../types.ts';
import { hapiFeeTinybars } from './hapi-fee.ts';
import type { BodyUsage } from './hapi-fee-usage.ts';
import { CANONICAL_TINYCENTS, type DispatchType, gasRequirement } from './hts-gas.ts';
import { ledgerReads } from './ledger-reads.ts';

export async function bodyGas(
  call: { readonly reader: LedgerReader },
  minimum: DispatchType | bigint,
  body: BodyUsage,
): Promise<bigint> {
  const reads = ledgerReads(call.reader);
  const [schedule, rate] = await Promise.all([reads.feeSchedule(), reads.exchangeRate()]);
  const minimumTinycents = typeof minimum === 'bigint' ? minimum : CANONICAL_TINYCENTS[minimum];
  return gasRequirement(minimumTinycents, hapiFeeTinybars(body, schedule, rate), rate);
}
