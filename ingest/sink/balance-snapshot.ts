/**
 * Historical balances, as the reference importer generates them once balance files stopped
 * (HistoricalBalanceService with its defaults): after a record file that ends at least 15 minutes after the last
 * balance file (or, before any, 2 minutes after the first record file), a snapshot at the file's consensus end into
 * `account_balance` and `token_balance`, with an `account_balance_file` row naming it. The first snapshot of a month
 * (the reference's account_balance partition) is full; later ones in the month hold only what changed since the last
 * treasury row, and always the treasury. Its file is named `<Instant>_Balances.csv` with `:` as `_`, its load times
 * epoch milliseconds. Written in the file's transaction.
 */
import type pg from 'pg';
import { balanceFileStem } from '../decode/stream-file-name.ts';

export const SNAPSHOT_MIN_FREQUENCY_NS = 15n * 60n * 1_000_000_000n;
/** HistoricalBalanceProperties.initialDelay. */
export const SNAPSHOT_INITIAL_DELAY_NS = 2n * 60n * 1_000_000_000n;
/** 0.0.2, the treasury whose rows mark a snapshot. */
const TREASURY = 2n;
/** The full snapshot keeps deleted entities and dissociated tokens that changed since a snapshot of the last 30 days. */
const THIRTY_DAYS_NS = 2_592_000_000_000_000n;

/** [start, end) of the UTC month holding `timestamp`, in nanoseconds. */
function monthOf(timestamp: bigint): [bigint, bigint] {
  const date = new Date(Number(timestamp / 1_000_000n));
  const start = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  const end = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  return [BigInt(start) * 1_000_000n, BigInt(end) * 1_000_000n];
}

async function due(client: pg.ClientBase, consensusEnd: bigint, minFrequency: bigint): Promise<boolean> {
  const { rows } = await client.query<{ last: string | null; first: string | null }>(
    `select (select max(consensus_timestamp) from account_balance_file)::text as last,
            (select min(consensus_end) from record_file)::text as first`,
  );
  const row = rows[0];
  const last = row?.last ? BigInt(row.last) : row?.first ? BigInt(row.first) + SNAPSHOT_INITIAL_DELAY_NS : undefined;
  return last !== undefined && consensusEnd - last >= minFrequency;
}

/** Takes a snapshot at `consensusEnd` when one is due; returns whether it did. */
export async function snapshotBalancesIfDue(
  client: pg.ClientBase,
  consensusEnd: bigint,
  minFrequency = SNAPSHOT_MIN_FREQUENCY_NS,
): Promise<boolean> {
  if (!(await due(client, consensusEnd, minFrequency))) return false;
  const loadStart = Date.now();
  const at = consensusEnd.toString();
  const treasury = TREASURY.toString();
  // The importer creates the treasury when it is missing (data that starts mid-chain).
  await client.query(
    `insert into entity (id, shard, realm, num, balance, created_timestamp, decline_reward, deleted, memo, type,
                         timestamp_range)
     values ($1, 0, 0, $1, 0, 0, true, false, 'Mirror node created synthetic treasury account', 'ACCOUNT', '[0,)')
     on conflict (id) do nothing`,
    [treasury],
  );
  const [monthStart, monthEnd] = monthOf(consensusEnd);
  const previous = await client.query<{ at: string | null }>(
    `select max(consensus_timestamp)::text as at from account_balance
      where account_id = $1 and consensus_timestamp >= $2 and consensus_timestamp < $3`,
    [treasury, monthStart.toString(), monthEnd.toString()],
  );
  const since = previous.rows[0]?.at;
  let accounts: pg.QueryResult;
  if (since === null || since === undefined) {
    const window = (consensusEnd - THIRTY_DAYS_NS).toString();
    accounts = await client.query(
      `insert into account_balance (account_id, balance, consensus_timestamp)
       select id, balance, $1 from entity
        where balance is not null and
              (deleted is not true or balance_timestamp > (
                 select coalesce(max(consensus_timestamp), 0) from account_balance
                  where account_id = $2 and consensus_timestamp > $3))`,
      [at, treasury, window],
    );
    await client.query(
      `insert into token_balance (account_id, balance, consensus_timestamp, token_id)
       select account_id, balance, $1, token_id from token_account
        where associated is true or balance_timestamp > (
                select coalesce(max(consensus_timestamp), 0) from account_balance
                 where account_id = $2 and consensus_timestamp > $3 and consensus_timestamp < $1)`,
      [at, treasury, window],
    );
  } else {
    accounts = await client.query(
      `insert into account_balance (account_id, balance, consensus_timestamp)
       select id, balance, $1 from entity
        where id = $2 or (balance is not null and balance_timestamp > $3)`,
      [at, treasury, since],
    );
    await client.query(
      `insert into token_balance (account_id, balance, consensus_timestamp, token_id)
       select account_id, balance, $1, token_id from token_account where balance_timestamp > $2`,
      [at, since],
    );
  }
  await client.query(
    `insert into account_balance_file (consensus_timestamp, count, load_start, load_end, name, synthetic)
     values ($1, $2, $3, $4, $5, true)`,
    [at, accounts.rowCount ?? 0, loadStart, Date.now(), `${balanceFileStem(consensusEnd)}.csv`],
  );
  return true;
}
