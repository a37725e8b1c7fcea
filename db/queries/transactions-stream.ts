import { sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { int8ArrayText } from './int8.ts';
import { type TransactionRow, transactionDetailColumns } from './transactions.ts';

/** A transaction with the subscribed accounts it belongs to (as `/transactions?account.id=` would list it). */
export interface AccountTransactionRow extends TransactionRow {
  /** Encoded ids, as text. */
  accounts: string[];
}

/**
 * Every transaction with a consensus timestamp in `(after, upTo]` that `/api/v1/transactions?account.id=<a>` lists
 * for one of `accounts`, each with the accounts it is listed for: paid by the account (a user-submitted transaction,
 * or a child of one of `precedingTypes`), linked to it by entity_transaction, or with a crypto or token transfer of
 * it. The stream tail reads this once per new range of record files for all account subscriptions together; the
 * range is a few seconds, so each table is read by its consensus timestamp and filtered by account.
 */
export function accountTransactionsInRange(
  db: Database,
  query: { accounts: readonly bigint[]; after: bigint; upTo: bigint; precedingTypes: readonly number[] },
): Promise<AccountTransactionRow[]> {
  const ids = sql`${int8ArrayText(query.accounts)}::bigint[]`;
  const range = (column: string) => sql`${sql.raw(column)} > ${query.after} and ${sql.raw(column)} <= ${query.upTo}`;
  const preceding =
    query.precedingTypes.length > 0 ? sql` or t.type in (${sql.join([...query.precedingTypes], sql`, `)})` : sql``;
  return db.rows<AccountTransactionRow>(sql`
    with matched as (
      select k.consensus_timestamp, array_agg(distinct k.account::text) as accounts
        from (select t.consensus_timestamp, t.payer_account_id as account
                from transaction t
               where ${range('t.consensus_timestamp')} and t.payer_account_id = any(${ids})
                 and (t.nonce = 0 or t.parent_consensus_timestamp is not null${preceding})
              union all
              select e.consensus_timestamp, e.entity_id
                from entity_transaction e
               where ${range('e.consensus_timestamp')} and e.entity_id = any(${ids})
              union all
              select ct.consensus_timestamp, ct.entity_id
                from crypto_transfer ct
               where ${range('ct.consensus_timestamp')} and ct.entity_id = any(${ids})
              union all
              select tt.consensus_timestamp, tt.account_id
                from token_transfer tt
               where ${range('tt.consensus_timestamp')} and tt.account_id = any(${ids})) k
       group by k.consensus_timestamp)
    select m.accounts, ${transactionDetailColumns({ assessedFees: false })}
      from matched m
      join transaction t on t.consensus_timestamp = m.consensus_timestamp
     order by t.consensus_timestamp`);
}
