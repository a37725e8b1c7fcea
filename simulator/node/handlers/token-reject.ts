/**
 * TokenReject (HIP-904) submitted to a node: an owner sends its whole balance of fungible tokens, or NFTs it names,
 * back to each token's treasury, signed by the owner alone (no custom fees, no receiver signature, no allowance).
 */

import type { Account, Ledger } from '../../ledger/ledger.ts';
import { applyTokenTransfers } from '../../mix/tokens.ts';
import { TokenTransfers } from '../../network/transfers.ts';
import { bigOf, ensure, type Pb, type TxHandler } from '../handling.ts';
import { liveAccount, liveToken } from './lookups.ts';

/** `ledger.tokenRejects.maxLen`. */
const MAX_REJECTIONS = 10;

const rejectionsOf = (data: Pb): Pb[] => (Array.isArray(data.rejections) ? (data.rejections as Pb[]) : []);

function referenceKey(reference: Pb): string {
  const nft = reference.nft as Pb | undefined;
  if (nft) return `${JSON.stringify(nft.token_ID ?? null)}#${bigOf(nft.serial_number)}`;
  return JSON.stringify(reference.fungible_token ?? null);
}

export const tokenReject: TxHandler = {
  price: () => ({ kind: 'tokenReject' }),
  pure: (data) => {
    const rejections = rejectionsOf(data);
    ensure(rejections.length > 0, 'EMPTY_TOKEN_REFERENCE_LIST');
    const seen = new Set<string>();
    for (const reference of rejections) {
      const nft = reference.nft as Pb | undefined;
      ensure(nft || reference.fungible_token, 'INVALID_TRANSACTION_BODY');
      if (nft) {
        ensure(nft.token_ID, 'INVALID_TOKEN_ID');
        ensure(bigOf(nft.serial_number) > 0n, 'INVALID_TOKEN_NFT_SERIAL_NUMBER');
      }
      const key = referenceKey(reference);
      ensure(!seen.has(key), 'TOKEN_REFERENCE_REPEATED');
      seen.add(key);
    }
  },
  handle: ({ net, data, payer }) => {
    const { ledger } = net;
    const owner = data.owner ? liveAccount(ledger, data.owner, 'INVALID_OWNER_ID') : ledger.account(payer);
    const rejections = rejectionsOf(data);
    ensure(rejections.length <= MAX_REJECTIONS, 'TOKEN_REFERENCE_LIST_SIZE_LIMIT_EXCEEDED');
    // The owner's signature is checked first (the node's pre-handle); what the rejections name, at handling.
    return {
      requiredKeys: owner.key ? [owner.key] : [],
      execute: () => {
        const tokens = new TokenTransfers();
        for (const reference of rejections) returned(ledger, owner, reference, tokens);
        applyTokenTransfers(net, tokens);
        return { tokens };
      },
    };
  },
};

/** Adds what one rejection sends back to the treasury to `tokens`, or fails with the node's code. */
function returned(ledger: Ledger, owner: Account, reference: Pb, tokens: TokenTransfers): void {
  const nftId = reference.nft as Pb | undefined;
  const token = liveToken(ledger, nftId ? nftId.token_ID : reference.fungible_token);
  ensure(!token.paused, 'TOKEN_IS_PAUSED');
  if (nftId) {
    const serial = bigOf(nftId.serial_number);
    const nft = ledger.nft(token.num, serial);
    ensure(nft && !nft.deleted, 'INVALID_NFT_ID');
    ensure(nft.owner === owner.num, 'INVALID_OWNER_ID');
  }
  ensure(token.treasury !== owner.num, 'ACCOUNT_IS_TREASURY');
  ensure(ledger.isAssociated(owner.num, token.num), 'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
  ensure(!token.frozen?.has(owner.num), 'ACCOUNT_FROZEN_FOR_TOKEN');
  if (nftId) {
    tokens.nft(token.num, { serial: bigOf(nftId.serial_number), from: owner.num, to: token.treasury });
    return;
  }
  ensure(token.type === 'FUNGIBLE_COMMON', 'ACCOUNT_AMOUNT_TRANSFERS_ONLY_ALLOWED_FOR_FUNGIBLE_COMMON');
  const balance = ledger.tokenBalance(owner.num, token.num);
  ensure(balance > 0n, 'INSUFFICIENT_TOKEN_BALANCE');
  tokens.add(token.num, owner.num, -balance).add(token.num, token.treasury, balance);
}
