import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { monthStart, snapshotPartitionBounds, TREASURY_ACCOUNT } from './accounts.ts';

/** How far back a balance snapshot may lie before the call's timestamp (31 days, as the reference). */
const SNAPSHOT_WINDOW_NS = 31n * 86_400n * 1_000_000_000n;
/** The fee collector: `crypto_transfer`'s per-account index leaves it out (it takes part in every transaction). */
const FEE_COLLECTOR = 98n;

/**
 * The hbar balance of `accountId` at `timestamp`: its balance in the latest snapshot at or before it (the
 * treasury's row tells when the snapshot was taken; the account's row is its newest from that month, as snapshots
 * may hold changed accounts only), plus its transfers after the snapshot up to `timestamp`, without those an
 * erratum deleted. Without a snapshot in the 31 days before, the sum of all its transfers up to `timestamp`.
 */
export async function historicalBalance(db: Database, accountId: bigint, timestamp: bigint): Promise<bigint> {
  const lower = timestamp - SNAPSHOT_WINDOW_NS;
  // A literal condition, so the planner can use the partial index for every other account.
  const accountIndex: SQL =
    accountId === FEE_COLLECTOR ? sql`` : sql`and ct.entity_id <> ${sql.raw(String(FEE_COLLECTOR))}`;
  const rows = await db.rows<{ balance: string | null }>(sql`
    with snapshot as (
      select consensus_timestamp as at
        from account_balance
       where account_id = ${TREASURY_ACCOUNT} and consensus_timestamp >= ${lower} and consensus_timestamp <= ${timestamp}
       order by consensus_timestamp desc
       limit 1),
    base as (
      select s.at,
             coalesce((select ab.balance
                         from account_balance ab
                        where ab.account_id = ${accountId}
                          and ab.consensus_timestamp >= ${monthStart(sql`s.at`)} and ab.consensus_timestamp <= s.at
                          ${snapshotPartitionBounds('ab', { lower, upper: timestamp, ne: [] })}
                        order by ab.consensus_timestamp desc
                        limit 1), 0) as balance
        from snapshot s
      union all
      select 0, 0 where not exists (select 1 from snapshot))
    select (select balance from base) + coalesce((
             select sum(ct.amount)
               from crypto_transfer ct
              where ct.entity_id = ${accountId} ${accountIndex}
                and ct.consensus_timestamp > (select at from base) and ct.consensus_timestamp <= ${timestamp}
                and (ct.errata is null or ct.errata <> 'DELETE')), 0) as balance`);
  return BigInt(rows[0]?.balance ?? 0);
}
