import { describe, expect, it } from 'vitest';
import { CallThrottle, GAS_EXCEEDED, REQUESTS_EXCEEDED, scaleGas } from './throttle.ts';

const settings = { requestsPerSecond: 2, gasPerSecond: 30_000_000n, gasLimitRefundPercent: 100 };

describe('CallThrottle', () => {
  it('counts gas in units of 10,000, none for 10,000 or less', () => {
    expect([scaleGas(10_000n), scaleGas(10_001n), scaleGas(15_000_000n)]).toEqual([0, 1, 1500]);
  });

  it('refuses the request after the per-second count, and admits again as the bucket refills', () => {
    const throttle = new CallThrottle(settings, 0);
    expect(throttle.admit(21_000n, 0)).toEqual({ admitted: true });
    expect(throttle.admit(21_000n, 0)).toEqual({ admitted: true });
    expect(throttle.admit(21_000n, 0)).toEqual({ admitted: false, detail: REQUESTS_EXCEEDED, retryAfterSeconds: 1 });
    expect(throttle.admit(21_000n, 500)).toEqual({ admitted: true });
  });

  it('refuses gas beyond the per-second budget until it is refunded', () => {
    const throttle = new CallThrottle({ ...settings, requestsPerSecond: 100 }, 0);
    expect(throttle.admit(15_000_000n, 0)).toEqual({ admitted: true });
    expect(throttle.admit(15_000_000n, 0)).toEqual({ admitted: true });
    expect(throttle.admit(15_000_000n, 0)).toMatchObject({ admitted: false, detail: GAS_EXCEEDED });
    throttle.refund(15_000_000n, 100_000n, 0);
    expect(throttle.admit(14_000_000n, 0)).toEqual({ admitted: true });
  });

  it('refunds only the configured share of the limit', () => {
    const throttle = new CallThrottle({ ...settings, requestsPerSecond: 100, gasLimitRefundPercent: 50 }, 0);
    throttle.admit(15_000_000n, 0);
    throttle.admit(15_000_000n, 0);
    throttle.refund(15_000_000n, 0n, 0);
    expect(throttle.admit(7_500_000n, 0)).toEqual({ admitted: true });
    expect(throttle.admit(10_001n, 0)).toMatchObject({ admitted: false, detail: GAS_EXCEEDED });
  });

  it('gives back all the gas of a request refused before it ran', () => {
    const throttle = new CallThrottle({ ...settings, requestsPerSecond: 100 }, 0);
    throttle.admit(15_000_000n, 0);
    throttle.admit(15_000_000n, 0);
    throttle.restore(15_000_000n, 0);
    expect(throttle.admit(15_000_000n, 0)).toEqual({ admitted: true });
  });
});
