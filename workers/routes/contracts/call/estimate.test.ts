import { describe, expect, it } from 'vitest';
import type { CallOutcome } from '../../../evm/types.ts';
import { estimateGas, estimateHex } from './estimate.ts';

/**
 * The search on its own, over a call that needs `needed` gas and uses `used` when it succeeds: the arithmetic of the
 * reference's binary search, which the end-to-end tests cannot pin down on real contracts.
 */
function callNeeding(needed: bigint, used: bigint) {
  const limits: bigint[] = [];
  const run = async (gas: bigint): Promise<CallOutcome> => {
    limits.push(gas);
    return gas >= needed
      ? { ok: true, output: new Uint8Array(), gasUsed: used }
      : { ok: false, status: 'INSUFFICIENT_GAS', output: new Uint8Array(), gasUsed: gas, childStatuses: [] };
  };
  return { run, limits };
}

const never = () => false;

describe('estimateGas', () => {
  it('lands within 10% of the first run above the gas the call needs', async () => {
    const { run, limits } = callNeeding(60_000n, 50_000n);
    const estimate = await estimateGas(run, { gasUsed: 50_000n }, 15_000_000n, never);
    expect(estimate).toBeGreaterThanOrEqual(60_000n);
    expect(estimate).toBeLessThan(60_000n + 5_000n * 2n);
    expect(limits.length).toBeLessThanOrEqual(20);
  });

  it('returns the gas used when the first run used all of its limit', async () => {
    const { run, limits } = callNeeding(0n, 30_000n);
    expect(await estimateGas(run, { gasUsed: 30_000n }, 30_000n, never)).toBe(30_000n);
    expect(limits).toEqual([]);
  });

  it('stops after 20 runs', async () => {
    const { run, limits } = callNeeding(14_999_999n, 21_000n);
    await estimateGas(run, { gasUsed: 21_000n }, 15_000_000n, never);
    expect(limits.length).toBe(20);
  });

  it('counts a thrown run as too little gas, unless the error is fatal', async () => {
    const failing = async (): Promise<CallOutcome> => {
      throw new Error('boom');
    };
    expect(await estimateGas(failing, { gasUsed: 21_000n }, 100_000n, never)).toBe(100_000n);
    await expect(estimateGas(failing, { gasUsed: 21_000n }, 100_000n, () => true)).rejects.toThrow('boom');
  });

  it('writes the estimate as 8 big-endian bytes', () => {
    expect(estimateHex(0x6d8dn)).toBe('0x0000000000006d8d');
  });
});
