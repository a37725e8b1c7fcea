import type { CallOutcome } from '../../../evm/types.ts';

/** Stop once a step moves the estimate by less than this share of the first run's gas (`estimateGasIterationThresholdPercent`). */
const THRESHOLD_PERCENT = 10n;
/** `maxGasEstimateRetriesCount`. */
const MAX_ITERATIONS = 20;

/**
 * The reference's gas estimate: the smallest gas limit, to within the threshold, under which the call still succeeds,
 * found by halving between the gas the first run used and the request's limit. `first` is that first run, which
 * succeeded with `gasLimit`. `run` repeats the call with another limit from a clean write state; a run that fails or
 * throws means too little gas, unless `isFatal` says the error ends the request (the time budget).
 */
export async function estimateGas(
  run: (gas: bigint) => Promise<CallOutcome>,
  first: { readonly gasUsed: bigint },
  gasLimit: bigint,
  isFatal: (error: unknown) => boolean,
): Promise<bigint> {
  if (first.gasUsed >= gasLimit) return first.gasUsed;
  let low = first.gasUsed;
  let high = gasLimit;
  let previous = low;
  const threshold = (low * THRESHOLD_PERCENT) / 100n;
  for (let iteration = 0; low + 1n < high && iteration < MAX_ITERATIONS; iteration++) {
    const middle = (low + high) / 2n;
    let succeeded: boolean;
    try {
      const outcome = await run(middle);
      succeeded = outcome.ok && outcome.gasUsed > 0n;
    } catch (error) {
      if (isFatal(error)) throw error;
      succeeded = false;
    }
    if (!succeeded) {
      low = middle;
    } else {
      high = middle;
      const step = previous > middle ? previous - middle : middle - previous;
      if (step < threshold) low = high;
    }
    previous = middle;
  }
  return high;
}

/** The estimate on the wire: 8 bytes, big-endian, `0x` and 16 hex digits. */
export const estimateHex = (gas: bigint): string => `0x${gas.toString(16).padStart(16, '0')}`;
