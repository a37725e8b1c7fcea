import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { type Comparison, compare } from './comparison.ts';
import { limitOf } from './limit.ts';

export interface RewardRow extends Record<string, unknown> {
  account_id: string;
  amount: string;
  consensus_timestamp: string;
}

/**
 * The staking rewards paid to an account, by consensus timestamp in `order`: range filters each apply, `eq`
 * timestamps form one `in` list. Walks the (account, timestamp) index.
 */
export function accountRewards(
  db: Database,
  query: { accountId: bigint; timestamp: readonly Comparison<bigint>[]; order: 'asc' | 'desc'; limit: number },
): Promise<RewardRow[]> {
  const conditions: SQL[] = [sql`account_id = ${query.accountId}`];
  const eq: SQL[] = [];
  for (const filter of query.timestamp) {
    if (filter.operator === 'eq') eq.push(sql`${filter.value}`);
    else conditions.push(compare(sql`consensus_timestamp`, filter));
  }
  if (eq.length > 0) conditions.push(sql`consensus_timestamp in (${sql.join(eq, sql`, `)})`);
  return db.rows<RewardRow>(sql`
    select account_id, amount, consensus_timestamp
      from staking_reward_transfer
     where ${sql.join(conditions, sql` and `)}
     order by consensus_timestamp ${sql.raw(query.order)}
     limit ${limitOf(query.limit)}`);
}
