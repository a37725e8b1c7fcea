/**
 * The exchange rate system contract at 0x168: `tinycentsToTinybars(uint256)` and `tinybarsToTinycents(uint256)` at
 * the rate in force at the block. Any other input halts, as on the consensus node.
 */
import type { PrecompileFunc } from '@ethereumjs/evm';
import type { LedgerReader } from '../types.ts';
import { encode, int, leadingSelector, selectorOf } from './abi.ts';
import { ledgerReads } from './ledger-reads.ts';
import { EXCHANGE_RATE_GAS, halt, success } from './results.ts';

const TO_TINYBARS = selectorOf('tinycentsToTinybars(uint256)');
const TO_TINYCENTS = selectorOf('tinybarsToTinycents(uint256)');
const UINT256_LIMIT = 1n << 256n;

export function exchangeRatePrecompile(reader: LedgerReader): PrecompileFunc {
  return async ({ data, gasLimit }) => {
    const selector = leadingSelector(data);
    if (selector !== TO_TINYBARS && selector !== TO_TINYCENTS) return halt(gasLimit);
    if (data.length < 36) return halt(gasLimit);
    let amount = 0n;
    for (const byte of data.subarray(4, 36)) amount = (amount << 8n) | BigInt(byte);
    const rate = await ledgerReads(reader).exchangeRate();
    const result =
      selector === TO_TINYBARS
        ? (amount * rate.hbarEquiv) / rate.centEquiv
        : (amount * rate.centEquiv) / rate.hbarEquiv;
    if (result >= UINT256_LIMIT) return halt(gasLimit);
    return success(EXCHANGE_RATE_GAS, gasLimit, encode(int(result)));
  };
}
