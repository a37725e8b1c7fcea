import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { type EntityAddress, liveEntityIds } from './accounts-lookup.ts';
import { inclusiveRangeUpper } from './int8.ts';
import { limitOf } from './limit.ts';

/** The treasury account (0.0.2): it is in every balance snapshot, so it tells when the snapshots were taken. */
export const TREASURY_ACCOUNT = 2n;

/** A token balance as `[token_id, balance]`; the token id is part of both source tables' primary keys. */
export type TokenBalanceJson = [tokenId: number | bigint, balance: number | bigint];

/** An account row as the formatter reads it. int8 columns are strings. */
export interface AccountRow extends Record<string, unknown> {
  alias: Uint8Array | null;
  auto_renew_period: string | null;
  created_timestamp: string | null;
  decline_reward: boolean;
  delegation_address: Uint8Array | null;
  deleted: boolean | null;
  ethereum_nonce: string | null;
  evm_address: Uint8Array | null;
  expiration_timestamp: string | null;
  id: string;
  key: Uint8Array | null;
  max_automatic_token_associations: number | null;
  memo: string;
  receiver_sig_required: boolean | null;
  staked_account_id: string | null;
  staked_node_id: string | null;
  stake_period_start: string | null;
  pending_reward: string;
  /** Absent when balances were not asked for. */
  balance?: string | null;
  balance_timestamp?: string | null;
  token_balances?: TokenBalanceJson[] | null;
}

/** Accounts and contracts, but not the treasury row the reference's importer invents for a network without one. */
export const ACCOUNT_ENTITY_CONDITION = sql.raw(
  `e.type in ('ACCOUNT', 'CONTRACT') and not (e.num = 2 and e.memo = 'Mirror node created synthetic treasury account')`,
);

/**
 * The entity columns of an account (alias `e`) and its pending reward from its stake row (alias `es`): nothing is
 * pending while it declines rewards, is not staked to a node, or changed its stake after the last reward period.
 */
export const ACCOUNT_COLUMNS = sql.raw(`e.alias, e.auto_renew_period, e.created_timestamp, e.decline_reward,
  e.delegation_address, e.deleted, e.ethereum_nonce, e.evm_address, e.expiration_timestamp, e.id, e.key,
  e.max_automatic_token_associations, e.memo, e.receiver_sig_required, e.staked_account_id, e.staked_node_id,
  e.stake_period_start,
  (case when es.pending_reward is null then 0
        when e.decline_reward is true or coalesce(e.staked_node_id, -1) = -1 then 0
        when e.stake_period_start >= es.end_stake_period then 0
        else es.pending_reward
   end) as pending_reward`);

/**
 * A json array of `[token_id, balance]` from a subquery of token rows (one per token), by token id. Arrays rather
 * than objects: an account can hold a thousand, and key names would be built, sent and parsed for each.
 */
export const tokenBalanceArray = (rows: SQL, order: 'asc' | 'desc'): SQL =>
  sql`(select json_agg(json_build_array(x.token_id, x.balance)
                        order by x.token_id ${sql.raw(order)})
         from (${rows}) x)`;

/** The account's associated tokens and their current balances, by token id in `order`, at most `limit`. */
export const currentTokenBalances = (accountId: SQL, order: 'asc' | 'desc', limit: number): SQL =>
  tokenBalanceArray(
    sql`select token_id, balance from token_account
                         where account_id = ${accountId} and associated is true
                         order by token_id ${sql.raw(order)}
                         limit ${limitOf(limit)}`,
    order,
  );

/** The account (or contract) `id` now, with its balance and up to `tokenLimit` token balances. */
export async function currentAccount(
  db: Database,
  args: { id: bigint; tokenLimit: number },
): Promise<AccountRow | undefined> {
  const rows = await db.rows<AccountRow>(sql`
    select ${ACCOUNT_COLUMNS}, e.balance, e.balance_timestamp,
           ${currentTokenBalances(sql`e.id`, 'asc', args.tokenLimit)} as token_balances
      from entity e
      left join entity_stake es on es.id = e.id and es.id = ${args.id}
     where ${ACCOUNT_ENTITY_CONDITION} and e.id = ${args.id}`);
  return rows[0];
}

/** The live entities with one alias or EVM address: how many (at most two), and the first one as an account. */
export interface AccountByAddress {
  matches: number;
  /** Undefined when nothing matched, or the entity that did is not an account or contract. */
  account: AccountRow | undefined;
}

/**
 * `currentAccount` for the live entity with this alias or EVM address, found in the same statement (the lookup
 * `liveEntityIds` makes, then the account's row): a client far from the database waits for one round trip, not
 * two. Up to two matches come back, so that several can be told from one.
 */
export async function currentAccountByAddress(
  db: Database,
  args: { address: EntityAddress; tokenLimit: number },
): Promise<AccountByAddress> {
  const rows = await db.rows<Omit<AccountRow, 'id'> & { id: string | null }>(sql`
    select ${ACCOUNT_COLUMNS}, e.balance, e.balance_timestamp,
           ${currentTokenBalances(sql`e.id`, 'asc', args.tokenLimit)} as token_balances
      from (${liveEntityIds(args.address)}) m
      left join entity e on e.id = m.id and ${ACCOUNT_ENTITY_CONDITION}
      left join entity_stake es on es.id = e.id`);
  const [first] = rows;
  return { matches: rows.length, account: first && first.id !== null ? (first as AccountRow) : undefined };
}

/** Timestamp filters as the account route reads them: an inclusive range (either side open), eq and ne values. */
export interface TimestampFilter {
  lower: bigint | null;
  upper: bigint | null;
  eq: readonly bigint[];
  ne: readonly bigint[];
}

/** Conditions that a validity range column overlaps the filter: the range, each eq as "at or before", each ne. */
export function rangeOverlapConditions(column: SQL, filter: TimestampFilter): SQL[] {
  const conditions: SQL[] = [];
  if (filter.lower !== null || filter.upper !== null) {
    const upper = inclusiveRangeUpper(filter.upper);
    conditions.push(sql`${column} && int8range(${filter.lower}::bigint, ${upper}::bigint, '[]')`);
  }
  for (const value of filter.ne) conditions.push(sql`not ${column} @> ${value}::bigint`);
  for (const value of filter.eq) {
    conditions.push(sql`${column} && int8range(null, ${inclusiveRangeUpper(value)}::bigint, '(]')`);
  }
  return conditions;
}

/** Where to look for the balance snapshot of a historical account: inclusive bounds and excluded timestamps. */
export interface SnapshotSearch {
  lower: bigint;
  upper: bigint;
  ne: readonly bigint[];
}

const ENTITY_HISTORY_COLUMNS = sql.raw(`alias, auto_renew_period, balance, balance_timestamp, created_timestamp,
  decline_reward, delegation_address, deleted, ethereum_nonce, evm_address, expiration_timestamp, id, key,
  max_automatic_token_associations, memo, num, receiver_sig_required, staked_account_id, staked_node_id,
  stake_period_start, timestamp_range, type`);

/** The first nanosecond of the UTC month an epoch-nanosecond expression falls in. */
export const monthStart = (ns: SQL): SQL =>
  sql`(extract(epoch from date_trunc('month', to_timestamp(${ns} / 1000000000) at time zone 'UTC')))::bigint * 1000000000`;

/**
 * Conditions a snapshot's rows (`alias`, a balance table) meet anyway: they lie between the start of the month of
 * the search's lower bound and its upper bound. Constants, unlike the snapshot's own bounds, so the planner prunes
 * the monthly partitions before planning them (planning all of them cost more than running the statement).
 */
export function snapshotPartitionBounds(alias: string, snapshot: SnapshotSearch): SQL {
  const column = sql.raw(`${alias}.consensus_timestamp`);
  return sql`and ${column} >= ${utcMonthStartNs(snapshot.lower)} and ${column} <= ${snapshot.upper}`;
}

function utcMonthStartNs(ns: bigint): bigint {
  const day = new Date(Number(ns / 1_000_000n));
  return BigInt(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1)) * 1_000_000n;
}

/**
 * The account `id` as it was during the timestamp filter: its latest entity version overlapping it, and its
 * stake version likewise. The balance is the one of the latest balance snapshot inside `snapshot` (the
 * snapshot time is the treasury's latest row there) as the account's latest row from the start of that month
 * (0 if none), and the token balances likewise; without a snapshot, the entity version's own balance and no
 * tokens. One statement.
 */
export async function historicalAccount(
  db: Database,
  args: { id: bigint; tokenLimit: number; timestamp: TimestampFilter; snapshot: SnapshotSearch | undefined },
): Promise<AccountRow | undefined> {
  const { id, snapshot } = args;
  const entityConditions = sql.join(
    [ACCOUNT_ENTITY_CONDITION, sql`e.id = ${id}`, ...rangeOverlapConditions(sql`e.timestamp_range`, args.timestamp)],
    sql` and `,
  );
  const stakeConditions = sql.join(
    [sql`s.id = ${id}`, ...rangeOverlapConditions(sql`s.timestamp_range`, args.timestamp)],
    sql` and `,
  );
  const snapshotRow = snapshot
    ? sql`select consensus_timestamp as upper
            from account_balance
           where account_id = ${TREASURY_ACCOUNT}
             and consensus_timestamp >= ${snapshot.lower} and consensus_timestamp <= ${snapshot.upper}
             ${snapshot.ne.length > 0 ? sql`and consensus_timestamp not in (${sql.join([...snapshot.ne], sql`, `)})` : sql``}
           order by consensus_timestamp desc
           limit 1`
    : sql`select null::bigint as upper where false`;
  const tokens = tokenBalanceArray(
    sql`select distinct on (tb.token_id) tb.token_id, tb.balance
          from token_balance tb
         where tb.account_id = ${id} and tb.consensus_timestamp >= b.lower and tb.consensus_timestamp <= b.upper
               ${snapshot ? snapshotPartitionBounds('tb', snapshot) : sql``}
         order by tb.token_id asc, tb.consensus_timestamp desc
         limit ${limitOf(args.tokenLimit)}`,
    'asc',
  );
  const rows = await db.rows<AccountRow>(sql`
    with snapshot as (${snapshotRow}),
         bounds as (select upper, ${monthStart(sql`upper`)} as lower from snapshot)
    select ${ACCOUNT_COLUMNS},
           case when b.upper is null then e.balance
                else coalesce((select ab.balance
                                 from account_balance ab
                                where ab.account_id = ${id}
                                  and ab.consensus_timestamp >= b.lower and ab.consensus_timestamp <= b.upper
                                  ${snapshot ? snapshotPartitionBounds('ab', snapshot) : sql``}
                                order by ab.consensus_timestamp desc
                                limit 1), 0)
           end as balance,
           case when b.upper is null then e.balance_timestamp else b.upper end as balance_timestamp,
           case when b.upper is null then '[]'::json else ${tokens} end as token_balances
      from (select ${ENTITY_HISTORY_COLUMNS} from entity e where ${entityConditions}
            union all
            select ${ENTITY_HISTORY_COLUMNS} from entity_history e where ${entityConditions}
            order by timestamp_range desc
            limit 1) e
      left join (select * from (select id, pending_reward, end_stake_period, timestamp_range
                                  from entity_stake s where ${stakeConditions}
                                union all
                                select id, pending_reward, end_stake_period, timestamp_range
                                  from entity_stake_history s where ${stakeConditions}) s
                  order by s.timestamp_range desc
                  limit 1) es on es.id = e.id
      left join bounds b on true`);
  return rows[0];
}
