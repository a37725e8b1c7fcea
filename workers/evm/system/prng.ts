/**
 * The PRNG system contract at 0x169: `getPseudorandomSeed()` answers 32 bytes of the ledger's running hash. The
 * consensus node takes the n-3 record running hash; the reference mirror fills it with the block's record file hash,
 * whose first 32 bytes are the seed. Any other input halts.
 */
import type { PrecompileFunc } from '@ethereumjs/evm';
import { bytesFromHex } from '../../../db/bytea.ts';
import type { LedgerReader } from '../types.ts';
import { leadingSelector, selectorOf } from './abi.ts';
import { isStaticFrame } from './frames.ts';
import { halt, PRNG_GAS, success, VIEW_GAS } from './results.ts';

const GET_PSEUDORANDOM_SEED = selectorOf('getPseudorandomSeed()');

export function prngPrecompile(reader: LedgerReader): PrecompileFunc {
  return ({ data, gasLimit, _EVM }) => {
    if (leadingSelector(data) !== GET_PSEUDORANDOM_SEED) return halt(gasLimit);
    // A static frame pays the view gas only (PrngSystemContract.calculateGas).
    const gas = isStaticFrame(_EVM) ? VIEW_GAS : PRNG_GAS;
    const seed = new Uint8Array(32);
    seed.set(bytesFromHex(reader.block.hash.slice(0, 64)));
    return success(gas, gasLimit, seed);
  };
}
