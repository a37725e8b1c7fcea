/**
 * Hedera's system contracts for the EVM: HTS 0x167 (token reads and writes, and the token redirect), the exchange
 * rate 0x168, PRNG 0x169, HAS 0x16a and HSS 0x16b (schedules), as @ethereumjs custom precompiles reading the ledger
 * at the session's block. `redirectBytecode` is the code token, account and schedule addresses show;
 * `trackCallFrames(evm)` lets the system contracts see their frames and keeps the run's token ledger in step.
 */
import type { CustomPrecompile, PrecompileFunc } from '@ethereumjs/evm';
import { createAddressFromString } from '@ethereumjs/util';
import type { LedgerReader } from '../types.ts';
import { EXCHANGE_RATE_ADDRESS, HAS_ADDRESS, HSS_ADDRESS, HTS_ADDRESS, PRNG_ADDRESS } from './addresses.ts';
import { exchangeRatePrecompile } from './exchange-rate.ts';
import { hasPrecompile } from './has.ts';
import { hssPrecompile } from './hss.ts';
import { htsPrecompile } from './hts.ts';
import { prngPrecompile } from './prng.ts';

export { redirectBytecode } from '../../../common/redirect-bytecode.ts';
export { trackCallFrames } from './frames.ts';

const precompileAt = (num: number, fn: PrecompileFunc): CustomPrecompile => ({
  address: createAddressFromString(`0x${num.toString(16).padStart(40, '0')}`),
  function: fn,
});

export function systemContracts(reader: LedgerReader): CustomPrecompile[] {
  return [
    precompileAt(HTS_ADDRESS, htsPrecompile(reader)),
    precompileAt(EXCHANGE_RATE_ADDRESS, exchangeRatePrecompile(reader)),
    precompileAt(PRNG_ADDRESS, prngPrecompile(reader)),
    precompileAt(HAS_ADDRESS, hasPrecompile(reader)),
    precompileAt(HSS_ADDRESS, hssPrecompile(reader)),
  ];
}
