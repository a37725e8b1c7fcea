import { javaBadRequest } from '../../../params/java/errors.ts';
import { type LedgerState, ScheduleError, scheduleFailure } from './calculators/common.ts';
import { FeeResult } from './fee-result.ts';
import { functionalityName } from './hedera-functionality.ts';
import { HIGH_VOLUME_FUNCTIONALITIES, highVolumeMultiplier, MULTIPLIER_SCALE } from './high-volume.ts';
import { BODY_DATA_FIELDS, TRANSACTION_TYPES } from './registry.ts';
import type { SimpleFeeSchedule } from './schedule.ts';
import { type SubmittedTransaction, UNABLE_TO_PARSE } from './transaction.ts';
import { oneofMember, readFields, WireError } from './wire.ts';

export interface EstimateRequest {
  transaction: SubmittedTransaction;
  schedule: SimpleFeeSchedule;
  /** STATE mode: the ledger the calculators may read, and the high-volume throttle's utilisation. */
  state: { ledger: LedgerState; highVolumeThrottle: number } | undefined;
}

const unknownType = () => javaBadRequest('Unknown transaction type');

/**
 * A transaction's fee as the consensus node's simple-fees calculator computes it: the node fee (base plus
 * signatures and bytes beyond the included ones), the network fee (node fee times the multiplier), the service fee
 * of its type (base plus the extras its calculator counts), then, in STATE mode, the HIP-1313 high-volume
 * multiplier over all of them. Amounts in tinycents.
 */
export async function estimateFee({ transaction, schedule, state }: EstimateRequest): Promise<FeeResult> {
  const { body } = transaction;
  const data = oneofMember(body, BODY_DATA_FIELDS);
  const type = data && TRANSACTION_TYPES.get(data.number);
  if (!data || !type) throw unknownType();
  const own = schedule.services.get(type.functionality);
  const entry = schedule.services.get(type.pricedAs ?? type.functionality);
  if (!entry) {
    throw javaBadRequest(`No fee schedule entry for ${functionalityName(type.pricedAs ?? type.functionality)}`);
  }
  const result = new FeeResult();
  try {
    if (data.value.wire !== 2) throw new WireError('wrong wire type');
    const op = readFields(data.value.bytes);
    if (!own?.nodeNetworkFeeExempt) addNodeFee(result, schedule, transaction);
    result.setServiceBase(entry.baseFee);
    await type.calculate(op, { schedule, entry, result, state: state?.ledger });
  } catch (error) {
    if (error instanceof WireError) throw javaBadRequest(UNABLE_TO_PARSE);
    if (error instanceof ScheduleError) throw scheduleFailure(error);
    throw error;
  }
  const rates = own?.highVolumeRates;
  if (
    state &&
    state.highVolumeThrottle > 0 &&
    rates &&
    transaction.highVolume &&
    HIGH_VOLUME_FUNCTIONALITIES.has(type.functionality)
  ) {
    const raw = BigInt(highVolumeMultiplier(rates, state.highVolumeThrottle));
    result.applyMultiplier(raw, BigInt(MULTIPLIER_SCALE));
    result.highVolumeMultiplier = raw;
  }
  return result;
}

/** The node's base fee and extras: signatures and the transaction's bytes are the ones it counts. */
function addNodeFee(result: FeeResult, schedule: SimpleFeeSchedule, transaction: SubmittedTransaction): void {
  result.setNodeBase(schedule.nodeBaseFee);
  for (const extra of schedule.nodeExtras) {
    const price = schedule.extraFees.get(extra.name);
    if (price === undefined) throw new ScheduleError(`Extra fee not found: ${extra.name}`);
    const used =
      extra.name === 'SIGNATURES'
        ? BigInt(transaction.signatures)
        : extra.name === 'PROCESSING_BYTES'
          ? BigInt(transaction.bytes)
          : 0n;
    result.addNodeExtra(extra.name, price, used, extra.included);
  }
  result.networkMultiplier = schedule.networkMultiplier;
}
