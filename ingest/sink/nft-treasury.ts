/**
 * An NFT collection's treasury change (a TokenUpdate naming a new treasury), as the importer writes it (its
 * NftRepository.updateTreasury): the record lists one NFT transfer of serial -1 from the old treasury to the new, and
 * every NFT the old treasury holds moves with it (the rows they were move to history, approvals end); the old
 * treasury's balance of the token drops to zero and the new one's grows by the count moved.
 */
import type pg from 'pg';
import type { NftTreasuryChange } from '../derive/file-rows.ts';

const SQL = `
  with history as (
    insert into nft_history (account_id, created_timestamp, delegating_spender, deleted, metadata, serial_number,
                             spender, token_id, timestamp_range)
    select account_id, created_timestamp, delegating_spender, deleted, metadata, serial_number, spender, token_id,
           int8range(lower(timestamp_range), $1)
      from nft
     where token_id = $2 and account_id = $3
  ), moved as (
    update nft set account_id = $4, delegating_spender = null, spender = null, timestamp_range = int8range($1, null)
     where token_id = $2 and account_id = $3
    returning serial_number
  ), counted as (
    select count(*) as n from moved
  )
  update token_account
     set balance = case when account_id = $3 then 0 else coalesce(balance, 0) + counted.n end,
         balance_timestamp = $1
    from counted
   where token_id = $2 and account_id in ($3, $4)`;

/** Runs after the file's NFT changes are written, in consensus order (a later change sees the earlier one). */
export async function applyNftTreasuryChanges(
  client: pg.ClientBase,
  changes: readonly NftTreasuryChange[],
): Promise<void> {
  for (const change of changes) {
    await client.query(SQL, [
      change.consensusTimestamp.toString(),
      change.tokenId.toString(),
      change.previousTreasury.toString(),
      change.newTreasury.toString(),
    ]);
  }
}
