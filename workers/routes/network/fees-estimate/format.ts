import type { ChargedExtra, FeeComponent, FeeResult } from './fee-result.ts';
import { MULTIPLIER_SCALE } from './high-volume.ts';

const formatExtra = (extra: ChargedExtra) => ({
  charged: extra.charged,
  count: extra.used,
  fee_per_unit: extra.perUnit,
  included: extra.included,
  name: extra.name,
  subtotal: extra.perUnit * extra.charged,
});

const formatComponent = (component: FeeComponent) => ({
  base: component.base,
  extras: component.extras.map(formatExtra),
});

/** The reference's `FeeEstimateResponse`: tinycents; the high-volume multiplier in whole times (raw / 1000). */
export function formatEstimate(result: FeeResult) {
  return {
    high_volume_multiplier: result.highVolumeMultiplier / BigInt(MULTIPLIER_SCALE),
    network: { multiplier: result.networkMultiplier, subtotal: result.networkTotal },
    node: formatComponent(result.node),
    service: formatComponent(result.service),
    total: result.total,
  };
}
