import type { CallOutcome } from '../../../evm/types.ts';

/** No call works with less: the intrinsic gas of any transaction (the route refuses an estimate below it). */
const LEAST_GAS = 21_000n;
/** The search stops once the gas that works and the gas that does not lie within this share of the former. */
const PRECISION_PERCENT = 1n;
/** What the estimate adds to the smallest gas found, for state that changes before the transaction runs. */
const MARGIN_PERCENT = 5n;
/** The first limit tried above the first run's gas used, in percent of it; each further one doubles. */
const FIRST_STEP_PERCENT = 125n;
/** Runs an estimate makes at most, after the first (`maxGasEstimateRetriesCount`). */
const MAX_RUNS = 20;

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

/**
 * The estimate: the smallest gas limit, within 1%, at which the call does what it did at the request's limit (it
 * succeeds, with the same output), plus a margin of 5%, and never above that limit. `first` is the run at
 * `gasLimit`, which succeeded. The limit may lie below the gas the first run used: an inner call that fails by design
 * burns what it is given, so it uses more the more the call has. So the search first tries the gas used; when that
 * works it tries 1% less (most calls need what they use, and are settled there) and halves down from there if that
 * works too, otherwise it steps up from it (x1.25, then doubling) to a limit that works and
 * halves between the two. `run` repeats the call with another limit from a clean write state; a run that throws
 * counts as a different outcome, unless `isFatal` says the error ends the request (the time budget).
 * docs/adr/0029-creates-and-estimates.md says where this differs from the reference.
 */
export async function estimateGas(
  run: (gas: bigint) => Promise<CallOutcome>,
  first: { readonly gasUsed: bigint; readonly output: Uint8Array },
  gasLimit: bigint,
  isFatal: (error: unknown) => boolean,
): Promise<bigint> {
  if (first.gasUsed >= gasLimit) return first.gasUsed;
  let runs = 0;
  const works = async (gas: bigint): Promise<boolean> => {
    runs++;
    try {
      const outcome = await run(gas);
      return outcome.ok && sameBytes(outcome.output, first.output);
    } catch (error) {
      if (isFatal(error)) throw error;
      return false;
    }
  };
  // Invariant: `high` works (the request's limit did), `low` does not (below LEAST_GAS nothing does).
  let low = LEAST_GAS - 1n;
  let high = gasLimit;
  if (first.gasUsed > low) {
    if (await works(first.gasUsed)) {
      high = first.gasUsed;
      // Most calls need exactly what they use: one run just below it settles them.
      const justBelow = high - (high * PRECISION_PERCENT) / 100n;
      if (justBelow > low) {
        if (await works(justBelow)) high = justBelow;
        else low = justBelow;
      }
    } else {
      low = first.gasUsed;
    }
  }
  let step = (low * FIRST_STEP_PERCENT) / 100n;
  while (high === gasLimit && step < gasLimit && runs < MAX_RUNS) {
    if (await works(step)) high = step;
    else low = step;
    step *= 2n;
  }
  while ((high - low) * 100n > high * PRECISION_PERCENT && runs < MAX_RUNS) {
    const middle = (low + high) / 2n;
    if (await works(middle)) high = middle;
    else low = middle;
  }
  const estimate = high + (high * MARGIN_PERCENT) / 100n;
  return estimate < gasLimit ? estimate : gasLimit;
}

/** The estimate on the wire: 8 bytes, big-endian, `0x` and 16 hex digits. */
export const estimateHex = (gas: bigint): string => `0x${gas.toString(16).padStart(16, '0')}`;
