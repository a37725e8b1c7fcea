import type { Decoded } from '../../format/protobuf-strict.ts';
import { timestampString } from '../../format/values.ts';
import type { Bound } from '../../params/java/bound.ts';
import { LONG_MAX, wrapLong } from '../../params/java/numbers.ts';
import { GAS_PRICED_FUNCTIONALITIES } from './system-file-schemas.ts';
import type { SystemFile } from './system-files.ts';

const NS_PER_SECOND = 1_000_000_000n;
/** Gas prices in the fee schedule are in thousandths of a tinycent. */
const FEE_DIVISOR = 1000n;

const message = (value: unknown): Decoded | undefined => value as Decoded | undefined;
const num = (value: unknown): number => (value as number | undefined) ?? 0;
const long = (value: unknown): bigint => (value as bigint | undefined) ?? 0n;

/** An exchange rate as the API shows it; null when the file does not set it. */
function exchangeRate(rate: Decoded | undefined) {
  if (!rate) return null;
  const expiration = message(rate.expirationTime);
  return {
    cent_equivalent: num(rate.centEquiv),
    expiration_time: expiration ? long(expiration.seconds) : null,
    hbar_equivalent: num(rate.hbarEquiv),
  };
}

export function formatExchangeRateSet(file: SystemFile) {
  return {
    current_rate: exchangeRate(message(file.data.currentRate)),
    next_rate: exchangeRate(message(file.data.nextRate)),
    timestamp: timestampString(file.timestamp),
  };
}

/** The current part of a current/next pair, or the next one once the reference time is past the current's expiry. */
function effective(pair: Decoded, current: string, next: string, expiry: string, referenceNs: bigint): Decoded {
  const currentPart = message(pair[current]) ?? {};
  const expirySeconds = long(message(currentPart[expiry])?.seconds);
  // the reference multiplies without overflow checks
  return referenceNs > wrapLong(expirySeconds * NS_PER_SECOND) ? (message(pair[next]) ?? {}) : currentPart;
}

/** Gas price in tinybars (at least 1), or null when the rate has no cent value. Java long arithmetic. */
function gasInTinybars(gas: bigint, hbars: number, cents: number): bigint | null {
  if (cents === 0) return null;
  const tinycents = gas / FEE_DIVISOR;
  const tinybars = wrapLong(wrapLong(tinycents * BigInt(hbars)) / BigInt(cents));
  return tinybars > 1n ? tinybars : 1n;
}

/**
 * The gas price of the contract transaction types in the fee schedule that applies at the reference time (the
 * bound's upper end, or the schedule's own timestamp when unbounded), converted at the exchange rate that applies
 * then; sorted by type name.
 */
export function formatFees(schedule: SystemFile, rates: SystemFile, bound: Bound, order: 'asc' | 'desc') {
  const referenceNs = bound.upper === LONG_MAX ? schedule.timestamp : bound.upper;
  const feeSchedule = effective(schedule.data, 'currentFeeSchedule', 'nextFeeSchedule', 'expiryTime', referenceNs);
  const rate = effective(rates.data, 'currentRate', 'nextRate', 'expirationTime', referenceNs);

  const fees: { gas: bigint; transaction_type: string }[] = [];
  for (const entry of (feeSchedule.transactionFeeSchedule as Decoded[] | undefined) ?? []) {
    const type = GAS_PRICED_FUNCTIONALITIES.get(num(entry.hederaFunctionality));
    const feeData = (entry.fees as Decoded[] | undefined)?.[0];
    const serviceData = message(feeData?.servicedata);
    if (type === undefined || !serviceData) continue;
    const gas = gasInTinybars(long(serviceData.gas), num(rate.hbarEquiv), num(rate.centEquiv));
    if (gas !== null) fees.push({ gas, transaction_type: type });
  }
  const byName = (a: { transaction_type: string }, b: { transaction_type: string }) => {
    const [x, y] = [a.transaction_type.toLowerCase(), b.transaction_type.toLowerCase()];
    return x < y ? -1 : x > y ? 1 : 0;
  };
  fees.sort(order === 'asc' ? byName : (a, b) => byName(b, a));
  return { fees, timestamp: timestampString(schedule.timestamp) };
}
