/**
 * Token airdrops (HIP-904): pending airdrops a record lists become `token_airdrop` rows in state PENDING;
 * TokenCancelAirdrop and TokenClaimAirdrop move them to CANCELLED / CLAIMED (the tokens moved on a claim are in
 * the record's transfer lists like any transfer).
 */
import type { PbEntityId } from '../decode/types.ts';
import { accountId, type ItemContext, serviceBody, tokenId } from './context.ts';

interface PendingAirdropId {
  sender_id?: PbEntityId;
  receiver_id?: PbEntityId;
  fungible_token_type?: PbEntityId;
  non_fungible_token?: { token_ID?: PbEntityId; serial_number?: bigint };
}

function key(id: PendingAirdropId) {
  const nft = id.non_fungible_token;
  return {
    sender_account_id: accountId(id.sender_id),
    receiver_account_id: accountId(id.receiver_id),
    token_id: nft ? tokenId(nft.token_ID) : tokenId(id.fungible_token_type),
    serial_number: nft ? (nft.serial_number ?? 0n) : 0n,
  };
}

/** Airdrops the network could not deliver yet: listed in a TokenAirdrop's record (TokenAirdropTransactionHandler). */
export function pendingAirdrops(ctx: ItemContext): void {
  if (!ctx.item.successful) return;
  for (const pending of ctx.item.record.new_pending_airdrops as {
    pending_airdrop_id?: PendingAirdropId;
    pending_airdrop_value?: { amount?: bigint };
  }[]) {
    if (!pending.pending_airdrop_id) continue;
    const id = key(pending.pending_airdrop_id);
    ctx.rows.change(
      'token_airdrop',
      {
        ...id,
        amount: id.serial_number === 0n ? (pending.pending_airdrop_value?.amount ?? 0n) : null,
        state: 'PENDING',
      },
      ctx.item.consensusTimestamp,
    );
  }
}

export function resolveAirdrops(ctx: ItemContext, state: 'CANCELLED' | 'CLAIMED'): void {
  if (!ctx.item.successful) return;
  const body = serviceBody<{ pending_airdrops: PendingAirdropId[] }>(ctx);
  for (const id of body.pending_airdrops) {
    const airdrop = key(id);
    ctx.rows.change('token_airdrop', { ...airdrop, state }, ctx.item.consensusTimestamp);
    if (state === 'CLAIMED') {
      // The claimed tokens arrive through the transfer list; the balance is not touched here. An account that
      // associated itself with the token before keeps its relationship as it is (SqlEntityListener.onTokenAccount).
      ctx.rows.changeUnless(
        'token_account',
        {
          account_id: airdrop.receiver_account_id,
          token_id: airdrop.token_id,
          associated: true,
          automatic_association: false,
          balance: 0n,
          balance_timestamp: ctx.item.consensusTimestamp,
          created_timestamp: ctx.item.consensusTimestamp,
        },
        ctx.item.consensusTimestamp,
        'associated',
      );
    }
  }
}
