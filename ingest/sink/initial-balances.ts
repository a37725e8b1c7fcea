/**
 * Current balances from the first account balance file, as the reference importer's InitializeEntityBalanceMigration
 * and TokenAccountBalanceMigration set them (`migration/`, run for the first balance file the database gets): each
 * account's balance is its balance in the file (the newest snapshot within 30 days of it) plus the hbar it received
 * after the file's time (+ `time_offset`) up to the newest record file, errata `DELETE` transfers left out; an
 * account-token pair the file lists likewise, plus its token transfers since (0 once dissociated), without statuses
 * (readers take the token's), as TokenAccountBalanceMigration inserts it.
 *
 * Where this differs from the importer: it also runs when the record stream has not reached the file yet (the
 * importer then leaves balances unset until a later balance file); the ingest writes a balance file only once every
 * record file that starts at or before its time is written (pipeline/balance-files.ts), so nothing lies between the
 * two and the file's balances are the balances. An account the database does not know is created as an `ACCOUNT`
 * valid from 0, as the ingest creates an account first seen in a transfer, rather than of type `UNKNOWN`, which
 * would keep the treasury out of `/api/v1/balances` and Rosetta's account lookups.
 */
import type pg from 'pg';

const THIRTY_DAYS_NS = 2_592_000_000_000_000n;

export interface BalanceSnapshotTimes {
  /** The balance file's consensus time. */
  readonly snapshot: bigint;
  /** Transfers after this time count on top of the file: its time plus its `time_offset`. */
  readonly from: bigint;
  /** The newest record file's consensus end, or the file's time when the record stream has not reached it. */
  readonly to: bigint;
}

export async function initializeBalances(client: pg.ClientBase, times: BalanceSnapshotTimes): Promise<number> {
  const params = [times.snapshot.toString(), times.from.toString(), times.to.toString(), THIRTY_DAYS_NS.toString()];
  const entities = await client.query(
    `with snapshot as (
       select distinct on (account_id) account_id, balance
         from account_balance
        where consensus_timestamp <= $1 and consensus_timestamp > $1::bigint - $4::bigint
        order by account_id, consensus_timestamp desc
     ), change as (
       select entity_id, sum(amount) as amount
         from crypto_transfer
        where consensus_timestamp > $2 and consensus_timestamp <= $3 and (errata is null or errata <> 'DELETE')
        group by entity_id
     ), state as (
       select coalesce(s.account_id, c.entity_id) as account_id,
              coalesce(s.balance, 0) + coalesce(c.amount, 0) as balance,
              case when s.balance is not null then false end as deleted
         from snapshot s full outer join change c on s.account_id = c.entity_id
     )
     insert into entity (id, shard, realm, num, balance, balance_timestamp, deleted, timestamp_range, type, memo)
     select account_id, account_id >> 54, (account_id >> 38) & 65535, account_id & 274877906943, balance, $3::bigint,
            deleted, '[0,)', 'ACCOUNT', ''
       from state
     on conflict (id) do update
       set balance = excluded.balance,
           balance_timestamp = coalesce(entity.balance_timestamp, excluded.balance_timestamp)`,
    params,
  );
  await client.query(
    `with token_snapshot as (
       select distinct on (account_id, token_id) account_id, token_id, balance
         from token_balance
        where consensus_timestamp <= $1 and consensus_timestamp > $1::bigint - $4::bigint
        order by account_id, token_id, consensus_timestamp desc
     ), transfer as (
       select account_id, token_id, sum(amount) as amount
         from token_transfer
        where consensus_timestamp > $2 and consensus_timestamp <= $3
        group by account_id, token_id
     )
     insert into token_account (account_id, associated, balance, balance_timestamp, created_timestamp, timestamp_range,
                                token_id)
     select s.account_id, coalesce(ta.associated, true),
            case when ta.associated is false then 0 else coalesce(tt.amount + s.balance, s.balance, 0) end,
            $3::bigint, 0, '[0,)', s.token_id
       from token_snapshot s
       left join token_account ta on ta.account_id = s.account_id and ta.token_id = s.token_id
       left join transfer tt on tt.account_id = s.account_id and tt.token_id = s.token_id
     on conflict (account_id, token_id) do update
       set balance = excluded.balance, balance_timestamp = excluded.balance_timestamp`,
    params,
  );
  return entities.rowCount ?? 0;
}
