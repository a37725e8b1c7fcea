import { describe, expect, it } from 'vitest';
import type { CallOutcome } from '../../../evm/types.ts';
import { estimateGas, estimateHex } from './estimate.ts';

const OUTPUT = new Uint8Array([1]);

/**
 * A call that does what it does at the limit with `needed` gas or more, using `used(gas)`; below `needed` it fails
 * (or, with `otherOutput`, succeeds with another output). The search's arithmetic, which the end-to-end tests cannot
 * pin down on real contracts.
 */
function callNeeding(needed: bigint, used: (gas: bigint) => bigint, otherOutput = false) {
  const limits: bigint[] = [];
  const run = async (gas: bigint): Promise<CallOutcome> => {
    limits.push(gas);
    if (gas >= needed) return { ok: true, output: OUTPUT, gasUsed: used(gas) };
    if (otherOutput) return { ok: true, output: new Uint8Array([2]), gasUsed: used(gas) };
    return { ok: false, status: 'INSUFFICIENT_GAS', output: new Uint8Array(), gasUsed: gas, childStatuses: [] };
  };
  return { run, limits, first: (limit: bigint) => ({ gasUsed: used(limit), output: OUTPUT }) };
}

const never = () => false;
const LIMIT = 15_000_000n;
/** The estimate lies 5-6% above the smallest gas that works: 1% precision, 5% margin. */
const expectAbove = (estimate: bigint, needed: bigint) => {
  expect(estimate).toBeGreaterThanOrEqual((needed * 105n) / 100n);
  expect(estimate).toBeLessThanOrEqual((needed * 10_605n) / 10_000n + 1n);
};

describe('estimateGas', () => {
  it('lands 5-6% above the smallest gas that works when that is above the gas used', async () => {
    const call = callNeeding(60_000n, () => 50_000n);
    const estimate = await estimateGas(call.run, call.first(LIMIT), LIMIT, never);
    expectAbove(estimate, 60_000n);
    expect(call.limits.length).toBeLessThanOrEqual(20);
  });

  it('settles a call that needs exactly the gas it uses in two runs', async () => {
    const call = callNeeding(50_000n, () => 50_000n);
    expectAbove(await estimateGas(call.run, call.first(LIMIT), LIMIT, never), 50_000n);
    expect(call.limits).toEqual([50_000n, 49_500n]);
  });

  it('searches below the gas used when an inner call burns what it is given', async () => {
    // 63/64 of whatever is left goes to an inner call that fails by design.
    const call = callNeeding(37_000n, (gas) => gas - gas / 64n);
    const estimate = await estimateGas(call.run, call.first(LIMIT), LIMIT, never);
    expectAbove(estimate, 37_000n);
    expect(call.limits.length).toBeLessThanOrEqual(20);
  });

  it('counts a success with another output as a different outcome', async () => {
    const call = callNeeding(400_000n, () => 30_000n, true);
    expectAbove(await estimateGas(call.run, call.first(LIMIT), LIMIT, never), 400_000n);
  });

  it('never answers more than the request limit', async () => {
    const call = callNeeding(99_000n, () => 90_000n);
    expect(await estimateGas(call.run, call.first(100_000n), 100_000n, never)).toBe(100_000n);
  });

  it('returns the gas used when the first run used all of its limit', async () => {
    const call = callNeeding(0n, () => 30_000n);
    expect(await estimateGas(call.run, call.first(30_000n), 30_000n, never)).toBe(30_000n);
    expect(call.limits).toEqual([]);
  });

  it('makes at most 20 runs, wherever the smallest gas that works lies', async () => {
    for (const needed of [21_000n, 21_001n, 1_000_000n, 14_999_999n, LIMIT]) {
      for (const used of [(): bigint => 21_000n, (gas: bigint) => gas - gas / 64n]) {
        const call = callNeeding(needed, used);
        await estimateGas(call.run, call.first(LIMIT), LIMIT, never);
        expect(call.limits.length).toBeLessThanOrEqual(20);
      }
    }
  });

  it('counts a thrown run as a different outcome, unless the error is fatal', async () => {
    const failing = async (): Promise<CallOutcome> => {
      throw new Error('boom');
    };
    const first = { gasUsed: 21_000n, output: OUTPUT };
    expect(await estimateGas(failing, first, 100_000n, never)).toBe(100_000n);
    await expect(estimateGas(failing, first, 100_000n, () => true)).rejects.toThrow('boom');
  });

  it('writes the estimate as 8 big-endian bytes', () => {
    expect(estimateHex(0x6d8dn)).toBe('0x0000000000006d8d');
  });
});
