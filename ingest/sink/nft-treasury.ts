/**
 * An NFT collection's treasury change (a TokenUpdate naming a new treasury), as the importer writes it (its
 * NftRepository.updateTreasury): the record lists one NFT transfer of serial -1 from the old treasury to the new, and
 * every NFT the old treasury holds moves with it (the rows they were move to history, approvals end); the old
 * treasury's balance of the token drops to zero and the new one's grows by the count moved.
 */
import type pg from 'pg';
import type { NftTreasuryChange } from '../derive/file-rows.ts';

const COLUMNS =
  'account_id, created_timestamp, delegating_spender, deleted, metadata, serial_number, spender, token_id';

/**
 * In order, for one change ($1 consensus timestamp, $2 token, $3 old treasury, $4 new treasury). The file's other NFT
 * changes are written already, a later one included: a row or history row that starts after the change and still
 * names the old treasury is the new one's (a metadata update after the move, say), and a history row that spans the
 * change is split at it.
 */
const STATEMENTS = [
  `insert into nft_history (${COLUMNS}, timestamp_range)
   select ${COLUMNS}, int8range(lower(timestamp_range), $1)
     from nft_history
    where token_id = $2 and account_id = $3 and lower(timestamp_range) < $1 and upper(timestamp_range) > $1`,
  `update nft_history set account_id = $4, delegating_spender = null, spender = null,
          timestamp_range = int8range(greatest(lower(timestamp_range), $1), upper(timestamp_range))
    where token_id = $2 and account_id = $3 and upper(timestamp_range) > $1`,
  `insert into nft_history (${COLUMNS}, timestamp_range)
   select ${COLUMNS}, int8range(lower(timestamp_range), $1)
     from nft
    where token_id = $2 and account_id = $3 and lower(timestamp_range) < $1`,
  `with moved as (
     update nft set account_id = $4, delegating_spender = null, spender = null,
            timestamp_range = int8range(greatest(lower(timestamp_range), $1), null)
      where token_id = $2 and account_id = $3
     returning serial_number
   ), counted as (
     select count(*) as n from moved
   )
   update token_account
      set balance = case when account_id = $3 then 0 else coalesce(balance, 0) + counted.n end,
          balance_timestamp = $1
     from counted
    where token_id = $2 and account_id in ($3, $4)`,
];

/** Runs after the file's NFT changes are written, in consensus order (a later change sees the earlier one). */
export async function applyNftTreasuryChanges(
  client: pg.ClientBase,
  changes: readonly NftTreasuryChange[],
): Promise<void> {
  for (const change of changes) {
    const values = [change.consensusTimestamp, change.tokenId, change.previousTreasury, change.newTreasury];
    // Each statement binds as many of the four values as it names (the new treasury is not in the copies to history).
    for (const statement of STATEMENTS) {
      const named = statement.includes('$4') ? 4 : 3;
      await client.query(statement, values.slice(0, named).map(String));
    }
  }
}
