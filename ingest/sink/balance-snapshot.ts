/**
 * Historical balances, as the reference importer generates them once balance files stopped
 * (`parser/record/historicalbalance/HistoricalBalanceService.java`): after a record file that ends at least
 * `minFrequency` (15 minutes) after the newest `account_balance_file` — or, while there is none, `initialDelay`
 * (2 minutes) plus `minFrequency` after the first record file's end — every account's hbar balance goes into
 * `account_balance` and every associated token balance into `token_balance` at the file's consensus end, with a
 * synthetic `account_balance_file` row naming the snapshot (load times in epoch milliseconds). Written in the file's
 * transaction.
 */
import type pg from 'pg';
import { balanceFileStem } from '../decode/stream-file-name.ts';

export const SNAPSHOT_MIN_FREQUENCY_NS = 15n * 60n * 1_000_000_000n;
export const SNAPSHOT_INITIAL_DELAY_NS = 2n * 60n * 1_000_000_000n;

/** Takes a snapshot at `consensusEnd` when one is due; returns whether it did. */
export async function snapshotBalancesIfDue(
  client: pg.ClientBase,
  consensusEnd: bigint,
  minFrequency = SNAPSHOT_MIN_FREQUENCY_NS,
): Promise<boolean> {
  const last = await client.query<{ at: string | null; first: string | null }>(
    `select (select max(consensus_timestamp) from account_balance_file)::text as at,
            (select consensus_end from record_file order by consensus_end limit 1)::text as first`,
  );
  const previous = last.rows[0]?.at ?? undefined;
  const first = last.rows[0]?.first ?? undefined;
  // `record_file` already holds the file being written: this runs in its transaction, after its rows.
  const since =
    previous !== undefined ? BigInt(previous) : BigInt(first ?? consensusEnd.toString()) + SNAPSHOT_INITIAL_DELAY_NS;
  if (consensusEnd - since < minFrequency) return false;
  const loadStart = Date.now();
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
  await client.query(
    `insert into account_balance_file (consensus_timestamp, count, load_start, load_end, name, time_offset, synthetic)
     values ($1, $2, $3, $4, $5, 0, true)`,
    [at, accounts.rowCount ?? 0, loadStart, Date.now(), `${balanceFileStem(consensusEnd)}.csv`],
  );
  return true;
}
