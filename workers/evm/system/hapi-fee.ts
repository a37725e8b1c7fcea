/**
 * The HAPI fee of a synthetic body, in tinybars, as `dispatchComputeFees` answers it to SystemContractGasCalculator:
 * hapi-fees' OverflowCheckingCalc over accumulated usage, or FeeBuilder.getFeeObject over an estimator's usage, with
 * the schedule entry of the body's functionality and subtype, at the block's exchange rate, congestion multiplier 1
 * (the reference runs without throttles). A body the schedule has no entry for costs the default usage prices, 300
 * tinycents, so its canonical price stands.
 */
import type { ExchangeRate } from './exchange-rate-file.ts';
import type { FeeComponents, FeeSchedule } from './fee-schedule-file.ts';
import { type BodyUsage, nonDegenerateDiv, type Usage, type UsageMatrix } from './hapi-fee-usage.ts';

const HRS_DIVISOR = 3600n;
/** Schedule prices are thousandths of a tinycent. */
const FEE_DIVISOR_FACTOR = 1000n;

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

/** FeeBuilder.getComponentFeeInTinyCents: every price times its usage, clamped, in tinycents (at least 1 if any). */
function componentTinycents(prices: FeeComponents, usage: UsageMatrix[keyof UsageMatrix]): bigint {
  const nominal =
    prices.constant * (usage.constant ?? 0n) +
    prices.bpt * (usage.bpt ?? 0n) +
    prices.vpt * (usage.vpt ?? 0n) +
    prices.rbh * (usage.rbh ?? 0n) +
    prices.sbh * (usage.sbh ?? 0n) +
    prices.bpr * (usage.bpr ?? 0n) +
    prices.sbpr * (usage.sbpr ?? 0n);
  const clamped = nominal < prices.min ? prices.min : nominal > prices.max ? prices.max : nominal;
  const tinycents = clamped / FEE_DIVISOR_FACTOR;
  return clamped > 0n && tinycents < 1n ? 1n : tinycents;
}

export function hapiFeeTinybars(body: BodyUsage, schedule: FeeSchedule, rate: ExchangeRate): bigint {
  const prices = schedule(body.functionality, body.subType);
  const tinybars = (tinycents: bigint) => (tinycents * rate.hbarEquiv) / rate.centEquiv;
  if (body.pricing === 'estimator') {
    return (
      tinybars(componentTinycents(prices.node, body.matrix.node)) +
      tinybars(componentTinycents(prices.network, body.matrix.network)) +
      tinybars(componentTinycents(prices.service, body.matrix.service))
    );
  }
  return (
    tinybars(nodeTinycents(body.usage, prices.node)) +
    tinybars(networkTinycents(body.usage, prices.network)) +
    tinybars(serviceTinycents(body.usage, prices.service))
  );
}
