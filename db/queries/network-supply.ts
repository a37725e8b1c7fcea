import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';

/** Inclusive ranges of encoded account ids. */
export type AccountRange = readonly [bigint, bigint];

export interface SupplyRow extends Record<string, unknown> {
  /** Sum of the balances of the accounts that hold unreleased hbars. */
  unreleased_supply: string;
  /** The latest balance timestamp among them; '0' when there is none. */
  consensus_timestamp: string;
}

const rangeTable = (ranges: readonly AccountRange[]): SQL => {
  const lowers = sql.join(
    ranges.map(([from]) => sql`${from}`),
    sql`, `,
  );
  const uppers = sql.join(
    ranges.map(([, to]) => sql`${to}`),
    sql`, `,
  );
  return sql`unnest(array[${lowers}]::bigint[], array[${uppers}]::bigint[]) as ranges(min_id, max_id)`;
};

/** The unreleased supply now: the current balances of the accounts in `ranges` (one statement). */
export async function currentUnreleasedSupply(db: Database, ranges: readonly AccountRange[]): Promise<SupplyRow> {
  const [row] = await db.rows<SupplyRow>(sql`
    select cast(coalesce(sum(e.balance), 0) as bigint) as unreleased_supply,
           cast(coalesce(max(e.balance_timestamp), 0) as bigint) as consensus_timestamp
      from entity e
      join ${rangeTable(ranges)} on e.id between ranges.min_id and ranges.max_id`);
  return row as SupplyRow;
}

/**
 * The unreleased supply from balance snapshots in [lower, upper]: each account's latest snapshot balance in that
 * window, summed (one statement).
 */
export async function historicalUnreleasedSupply(
  db: Database,
  ranges: readonly AccountRange[],
  lower: bigint,
  upper: bigint,
): Promise<SupplyRow> {
  const [row] = await db.rows<SupplyRow>(sql`
    with latest as (
      select distinct on (ab.account_id) ab.balance, ab.consensus_timestamp
        from account_balance ab
        join ${rangeTable(ranges)} on ab.account_id between ranges.min_id and ranges.max_id
       where ab.consensus_timestamp between ${lower} and ${upper}
       order by ab.account_id, ab.consensus_timestamp desc
    )
    select cast(coalesce(sum(balance), 0) as bigint) as unreleased_supply,
           coalesce(max(consensus_timestamp), 0) as consensus_timestamp
      from latest`);
  return row as SupplyRow;
}
