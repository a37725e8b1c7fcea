/**
 * The HAPI fee of a synthetic body, in tinybars, as `dispatchComputeFees` answers it to SystemContractGasCalculator:
 * hapi-fees' OverflowCheckingCalc over the body's usage with the schedule entry of its functionality and subtype, at
 * the block's exchange rate, congestion multiplier 1 (the reference runs without throttles). A body the schedule has
 * no entry for costs nothing, so its canonical price stands.
 */
import type { ExchangeRate } from './exchange-rate-file.ts';
import type { FeeComponents, FeeSchedule } from './fee-schedule-file.ts';
import type { BodyUsage, Usage } from './hapi-fee-usage.ts';

const HRS_DIVISOR = 3600n;
/** Schedule prices are thousandths of a tinycent. */
const FEE_DIVISOR_FACTOR = 1000n;

/** EstimatorUtils.nonDegenerateDiv: any nonzero usage counts at least one unit. */
const nonDegenerateDiv = (dividend: bigint, divisor: bigint): bigint =>
  dividend === 0n ? 0n : dividend / divisor > 1n ? dividend / divisor : 1n;

function constrainedTinycents(nominal: bigint, prices: FeeComponents): bigint {
  const clamped = nominal < prices.min ? prices.min : nominal > prices.max ? prices.max : nominal;
  return nonDegenerateDiv(clamped, FEE_DIVISOR_FACTOR);
}

const networkTinycents = (usage: Usage, prices: FeeComponents): bigint =>
  constrainedTinycents(
    prices.constant +
      usage.bpt * prices.bpt +
      usage.vpt * prices.vpt +
      nonDegenerateDiv(usage.networkRbs, HRS_DIVISOR) * prices.rbh,
    prices,
  );

const nodeTinycents = (usage: Usage, prices: FeeComponents): bigint =>
  constrainedTinycents(
    prices.constant +
      usage.bpt * prices.bpt +
      usage.bpr * prices.bpr +
      usage.sbpr * prices.sbpr +
      usage.payerKeys * prices.vpt,
    prices,
  );

const serviceTinycents = (usage: Usage, prices: FeeComponents): bigint =>
  constrainedTinycents(
    prices.constant +
      nonDegenerateDiv(usage.rbs, HRS_DIVISOR) * prices.rbh +
      nonDegenerateDiv(usage.sbs, HRS_DIVISOR) * prices.sbh +
      usage.gas * prices.gas,
    prices,
  );

export function hapiFeeTinybars(body: BodyUsage, schedule: FeeSchedule, rate: ExchangeRate): bigint {
  const prices = schedule(body.functionality, body.subType);
  if (!prices) return 0n;
  const tinybars = (tinycents: bigint) => (tinycents * rate.hbarEquiv) / rate.centEquiv;
  return (
    tinybars(nodeTinycents(body.usage, prices.node)) +
    tinybars(networkTinycents(body.usage, prices.network)) +
    tinybars(serviceTinycents(body.usage, prices.service))
  );
}
