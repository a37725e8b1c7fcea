/**
 * The gas of a synthetic CryptoTransfer (ClassicTransfersCall.transferGasRequirement): its minimum price from the
 * canonical prices of what it moves, or its body's HAPI fee where that is larger.
 */
import type { LedgerReader } from '../types.ts';
import type { CryptoTransfer } from './crypto-transfer.ts';
import { bodyGas } from './dispatch-gas.ts';
import { transferUsage } from './hapi-fee-usage.ts';
import { transferTinycents } from './hts-gas.ts';

export function transferCallGas(
  call: { readonly reader: LedgerReader },
  transfer: CryptoTransfer,
  customFees: boolean,
  lazyCreations: number,
): Promise<bigint> {
  const unitAdjusts = transfer.tokens.reduce((n, list) => n + list.adjusts.length, 0);
  const nftExchanges = transfer.tokens.reduce((n, list) => n + list.nfts.length, 0);
  const hbarAdjusts = transfer.hbar.length;
  const minimum = transferTinycents({ hbarAdjusts, unitAdjusts, nftExchanges, customFees, lazyCreations });
  const body = transferUsage({
    hbarAdjusts,
    tokenLists: transfer.tokens.length,
    unitAdjusts,
    nftExchanges,
    customFees,
  });
  return bodyGas(call, minimum, body);
}
