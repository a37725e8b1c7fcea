/** The ABI forms of HTS transfer lists (IHederaTokenService.AccountAmount, NftTransfer, TokenTransferList). */
import type { AbiArgs } from './abi.ts';
import type { Adjust, TokenTransferList } from './crypto-transfer.ts';

type AbiList = { length: number; items: AbiArgs };

/** An (address, int64[, bool]) AccountAmount list; `withApproval`: the v2 form with isApproval. */
export function adjustsOf(list: AbiList, withApproval: boolean): Adjust[] {
  const size = withApproval ? 3 : 2;
  return Array.from({ length: list.length }, (_, i) => ({
    account: list.items.address(i * size),
    amount: list.items.int(i * size + 1, 64),
    approval: withApproval && list.items.bool(i * size + 2),
  }));
}

/** TokenTransferList[]: v1 without approval flags, v2 (and airdrops) with them. */
export function tokenListsOf(lists: AbiList, v2: boolean): TokenTransferList[] {
  const size = v2 ? 4 : 3;
  return Array.from({ length: lists.length }, (_, i) => {
    const list = lists.items.tuple(i);
    const nfts = list.array(2);
    return {
      token: list.address(0),
      adjusts: adjustsOf(list.array(1), v2),
      nfts: Array.from({ length: nfts.length }, (_, j) => ({
        from: nfts.items.address(j * size),
        to: nfts.items.address(j * size + 1),
        serial: nfts.items.int(j * size + 2, 64),
        approval: v2 && nfts.items.bool(j * size + 3),
      })),
    };
  });
}
