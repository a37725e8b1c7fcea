import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { limitOf } from './limit.ts';

export interface AirdropRow extends Record<string, unknown> {
  amount: string | null;
  receiver_account_id: string;
  sender_account_id: string;
  /** 0 for a fungible token. */
  serial_number: string;
  timestamp_from: string | null;
  timestamp_to: string | null;
  token_id: string;
}

/**
 * The pending airdrops an account sent (`outstanding`) or is to receive (`pending`), by the other party, token id
 * and serial number in `order`, within `bounds` (a condition from `boundConditions`, null for none).
 */
export function tokenAirdrops(
  db: Database,
  query: {
    accountId: bigint;
    kind: 'outstanding' | 'pending';
    bounds: SQL | null;
    order: 'asc' | 'desc';
    limit: number;
  },
): Promise<AirdropRow[]> {
  const direction = sql.raw(query.order);
  const [account, other] =
    query.kind === 'outstanding'
      ? ['sender_account_id', 'receiver_account_id']
      : ['receiver_account_id', 'sender_account_id'];
  const conditions = [sql`${sql.raw(account)} = ${query.accountId}`];
  if (query.bounds) conditions.push(query.bounds);
  conditions.push(sql`state = 'PENDING'`);
  return db.rows<AirdropRow>(sql`
    select amount, receiver_account_id, sender_account_id, serial_number, lower(timestamp_range) as timestamp_from,
           upper(timestamp_range) as timestamp_to, token_id
      from token_airdrop
     where ${sql.join(conditions, sql` and `)}
     order by ${sql.raw(other)} ${direction}, token_id ${direction}, serial_number ${direction}
     limit ${limitOf(query.limit)}`);
}
