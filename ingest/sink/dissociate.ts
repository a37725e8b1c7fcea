/**
 * TokenDissociate from a deleted token, as the importer writes it (its DissociateTokenTransferUpsertQueryGenerator):
 * the token's total supply drops by the balance that leaves. For an NFT token the account's NFTs are deleted (the
 * rows they were move to history) and listed on the transaction as one NFT transfer whose serial number is the
 * amount; for a fungible token the transfer is a token_transfer row.
 */
import type pg from 'pg';
import { int8ArrayText } from '../../db/queries/int8.ts';
import type { DissociateTransfer } from '../derive/file-rows.ts';

const SQL = `
  with tdt as (
    select * from unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[])
      as u(consensus_timestamp, token_id, account_id, amount, payer_account_id)
  ), nft_history as (
    insert into nft_history (account_id, created_timestamp, delegating_spender, deleted, metadata, serial_number,
                             spender, token_id, timestamp_range)
    select n.account_id, n.created_timestamp, n.delegating_spender, n.deleted, n.metadata, n.serial_number,
           n.spender, n.token_id, int8range(lower(n.timestamp_range), tdt.consensus_timestamp)
      from nft n join tdt on tdt.account_id = n.account_id and tdt.token_id = n.token_id
  ), dissociated_nft as (
    update nft set account_id = null, delegating_spender = null, deleted = true, spender = null,
                   timestamp_range = int8range(tdt.consensus_timestamp, null)
      from tdt
     where nft.token_id = tdt.token_id and nft.account_id = tdt.account_id and nft.deleted is false
    returning nft.token_id
  ), nft_token as (
    select distinct token_id from dissociated_nft
  ), nft_transfer as (
    select tdt.consensus_timestamp, jsonb_agg(jsonb_build_object(
             'is_approval', false, 'receiver_account_id', null, 'sender_account_id', tdt.account_id,
             'serial_number', tdt.amount, 'token_id', tdt.token_id) order by tdt.token_id, tdt.amount) as transfer
      from tdt join nft_token using (token_id)
     group by tdt.consensus_timestamp
  ), listed as (
    update transaction t set nft_transfer = nt.transfer
      from nft_transfer nt where t.consensus_timestamp = nt.consensus_timestamp
  ), supply as (
    update token t set total_supply = t.total_supply + s.amount
      from (select token_id, sum(amount) as amount from tdt group by token_id) s
     where t.token_id = s.token_id
  )
  insert into token_transfer (token_id, account_id, consensus_timestamp, amount, payer_account_id, is_approval)
  select tdt.token_id, tdt.account_id, tdt.consensus_timestamp, tdt.amount, tdt.payer_account_id, false
    from tdt left join nft_token nt on nt.token_id = tdt.token_id
   where nt.token_id is null`;

/** Runs after the file's transaction rows are written (it amends their `nft_transfer`). */
export async function applyDissociateTransfers(
  client: pg.ClientBase,
  transfers: readonly DissociateTransfer[],
): Promise<void> {
  if (transfers.length === 0) return;
  const column = (pick: (t: DissociateTransfer) => bigint) => int8ArrayText(transfers.map(pick));
  await client.query(SQL, [
    column((t) => t.consensusTimestamp),
    column((t) => t.tokenId),
    column((t) => t.accountId),
    column((t) => t.amount),
    column((t) => t.payerAccountId),
  ]);
}
