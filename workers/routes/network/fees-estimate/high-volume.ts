import { HEDERA_FUNCTIONALITY as F } from './hedera-functionality.ts';
import type { HighVolumeRates } from './schedule.ts';

/** HIP-1313: multipliers are scaled by 1000 (1000 = 1x); utilisation is in basis points (10000 = 100 %). */
export const MULTIPLIER_SCALE = 1000;
const UTILIZATION_SCALE = 10_000;

/** The transaction types the consensus node prices by throttle utilisation when they ask for it (`high_volume`). */
export const HIGH_VOLUME_FUNCTIONALITIES: ReadonlySet<number | undefined> = new Set([
  F.CryptoCreate,
  F.ConsensusCreateTopic,
  F.ScheduleCreate,
  F.CryptoApproveAllowance,
  F.FileCreate,
  F.FileAppend,
  F.ContractCreate,
  F.HookStore,
  F.TokenAssociateToAccount,
  F.TokenAirdrop,
  F.TokenClaimAirdrop,
  F.TokenMint,
  F.TokenCreate,
]);

/** Integer interpolation between two points, the remainder dropped (Java's long division). */
function interpolate(x0: number, y0: number, x1: number, y1: number, x: number): number {
  if (x1 === x0) return y0;
  return y0 + Math.trunc(((y1 - y0) * (x - x0)) / (x1 - x0));
}

const atLeastOne = (multiplier: number): number => Math.max(multiplier, MULTIPLIER_SCALE);

/** The curve's value at `utilization`: flat before the first point and after the last, linear in between. */
function piecewiseLinear(points: HighVolumeRates['points'], utilization: number): number {
  const sorted = [...points].sort((a, b) => a.utilization - b.utilization);
  if (sorted.length === 1) return atLeastOne((sorted[0] as (typeof sorted)[0]).multiplier);
  let lower: (typeof sorted)[0] | undefined;
  let upper: (typeof sorted)[0] | undefined;
  for (const point of sorted) {
    if (point.utilization <= utilization) lower = point;
    if (point.utilization >= utilization && upper === undefined) upper = point;
  }
  if (!lower) return atLeastOne((sorted[0] as (typeof sorted)[0]).multiplier);
  if (!upper) return atLeastOne((sorted[sorted.length - 1] as (typeof sorted)[0]).multiplier);
  if (lower.utilization === upper.utilization) return atLeastOne(upper.multiplier);
  return interpolate(
    lower.utilization,
    atLeastOne(lower.multiplier),
    upper.utilization,
    atLeastOne(upper.multiplier),
    utilization,
  );
}

/**
 * The raw multiplier (scaled by 1000) at a utilisation: the schedule's piecewise-linear curve, or a straight line
 * from 1x at 0 % to `maxMultiplier` at 100 % when it has none; never below 1x nor above `maxMultiplier`.
 */
export function highVolumeMultiplier(rates: HighVolumeRates, utilizationBasisPoints: number): number {
  const max = Math.max(rates.maxMultiplier, MULTIPLIER_SCALE);
  const utilization = Math.max(0, Math.min(utilizationBasisPoints, UTILIZATION_SCALE));
  const raw =
    rates.points.length === 0
      ? interpolate(0, MULTIPLIER_SCALE, UTILIZATION_SCALE, max, utilization)
      : piecewiseLinear(rates.points, utilization);
  return Math.max(MULTIPLIER_SCALE, Math.min(raw, max));
}
