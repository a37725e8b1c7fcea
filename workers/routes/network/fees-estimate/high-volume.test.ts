import { describe, expect, it } from 'vitest';
import { highVolumeMultiplier } from './high-volume.ts';

/** The genesis curve of ConsensusCreateTopic (utilisation in basis points, multiplier in thousandths). */
const TOPIC_CURVE = {
  maxMultiplier: 200000,
  points: [
    [2, 4000],
    [3, 8000],
    [5, 10000],
    [7, 15000],
    [10, 20000],
    [15, 30000],
    [20, 40000],
    [50, 60000],
    [100, 80000],
    [200, 100000],
    [500, 150000],
    [1000, 200000],
    [10000, 200000],
  ].map(([utilization, multiplier]) => ({ utilization: utilization as number, multiplier: multiplier as number })),
};

describe('highVolumeMultiplier (HIP-1313)', () => {
  it('follows the piecewise-linear curve, flat before its first point and after its last', () => {
    expect(highVolumeMultiplier(TOPIC_CURVE, 0)).toBe(4000);
    expect(highVolumeMultiplier(TOPIC_CURVE, 2)).toBe(4000);
    expect(highVolumeMultiplier(TOPIC_CURVE, 4)).toBe(9000);
    // between 200 (100000) and 500 (150000): 100000 + 50000 * 100 / 300, the remainder dropped
    expect(highVolumeMultiplier(TOPIC_CURVE, 300)).toBe(116666);
    expect(highVolumeMultiplier(TOPIC_CURVE, 5000)).toBe(200000);
    expect(highVolumeMultiplier(TOPIC_CURVE, 10000)).toBe(200000);
  });

  it('is a straight line from 1x to the maximum without a curve', () => {
    const rates = { maxMultiplier: 100000, points: [] };
    expect(highVolumeMultiplier(rates, 0)).toBe(1000);
    expect(highVolumeMultiplier(rates, 5000)).toBe(50500);
    expect(highVolumeMultiplier(rates, 10000)).toBe(100000);
  });

  it('never goes below 1x nor above the maximum', () => {
    const points = [
      { utilization: 0, multiplier: 500 },
      { utilization: 10000, multiplier: 900000 },
    ];
    expect(highVolumeMultiplier({ maxMultiplier: 300000, points }, 0)).toBe(1000);
    expect(highVolumeMultiplier({ maxMultiplier: 300000, points }, 10000)).toBe(300000);
    expect(highVolumeMultiplier({ maxMultiplier: 0, points: [] }, 10000)).toBe(1000);
  });
});
