/**
 * Historical balances, as the reference importer generates them once balance files stopped: after a record
 * file that ends at least `minFrequency` (15 minutes) after the previous snapshot, every account's hbar balance
 * goes into `account_balance` and every associated token balance into `token_balance` at the file's
 * consensus end, with an `account_balance_file` row naming the snapshot. Written in the file's transaction.
 */
import type pg from 'pg';

export const SNAPSHOT_MIN_FREQUENCY_NS = 15n * 60n * 1_000_000_000n;

function snapshotName(timestamp: bigint): string {
  const iso = new Date(Number(timestamp / 1_000_000n)).toISOString().slice(0, 19).replaceAll(':', '_');
  return `${iso}.${String(timestamp % 1_000_000_000n).padStart(9, '0')}Z_Balances.pb.gz`;
}

/** Takes a snapshot at `consensusEnd` when one is due; returns whether it did. */
export async function snapshotBalancesIfDue(
  client: pg.ClientBase,
  consensusEnd: bigint,
  minFrequency = SNAPSHOT_MIN_FREQUENCY_NS,
): Promise<boolean> {
  const last = await client.query<{ at: string | null }>(
    'select max(consensus_timestamp)::text as at from account_balance_file',
  );
  const previous = last.rows[0]?.at;
  if (previous !== null && previous !== undefined && consensusEnd - BigInt(previous) < minFrequency) return false;
  const at = consensusEnd.toString();
  const accounts = await client.query(
    `insert into account_balance (consensus_timestamp, account_id, balance)
     select $1, id, balance from entity
      where balance is not null and deleted is not true and type in ('ACCOUNT', 'CONTRACT')`,
    [at],
  );
  await client.query(
    `insert into token_balance (consensus_timestamp, account_id, balance, token_id)
     select $1, account_id, balance, token_id from token_account where associated`,
    [at],
  );
  const now = Math.floor(Date.now() / 1000);
  await client.query(
    `insert into account_balance_file (consensus_timestamp, count, load_start, load_end, name, time_offset, synthetic)
     values ($1, $2, $3, $3, $4, 0, true)`,
    [at, accounts.rowCount ?? 0, now, snapshotName(consensusEnd)],
  );
  return true;
}
