import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { SUCCESS_CODES } from '../codes/response-codes.ts';
import { idConditions } from './accounts-paging.ts';
import { COMMITTED_END } from './committed-end.ts';
import type { ComparisonOperator } from './comparison.ts';
import { limitOf } from './limit.ts';
import { type TransactionRow, transactionDetailColumns } from './transactions.ts';

/** 0.0.98, which receives a share of nearly every fee: the crypto transfer account index leaves it out. */
const FEE_COLLECTOR_ACCOUNT = 98n;

/** An account condition; `null` stands for an id that names no entity (an EVM address): it matches nothing. */
export interface AccountCondition {
  operator: ComparisonOperator;
  account: bigint | null;
}

/** Consensus timestamp bounds, all inclusive; at most one `eq` (several cannot match one transaction). */
export interface ConsensusBounds {
  lower: bigint | null;
  upper: bigint | null;
  eq: bigint | null;
  ne: readonly bigint[];
}

export interface TransactionListQuery {
  /** Conditions on the account, all of which must hold; empty for no account filter. */
  accounts: readonly AccountCondition[];
  /** `type=credit|debit`: only transactions with a transfer of that sign (to the account, when one is given). */
  transferSign?: 'credit' | 'debit';
  result?: 'success' | 'fail';
  /** Transaction type ids, any of which matches; empty for all. */
  types: readonly number[];
  timestamp: ConsensusBounds;
  order: 'asc' | 'desc';
  limit: number;
  /**
   * Types whose child transactions (nonce > 0, no parent) still count as paid by the account
   * (`query.transactions.precedingTransactionTypes`).
   */
  precedingTypes: readonly number[];
}

/**
 * One page of `GET /api/v1/transactions`, in `order` of consensus timestamp, each row with its transfers: one
 * statement. The page's keys come from the smallest set of index walks that answers the filters, each bounded by
 * `limit`: the transaction table alone (by consensus timestamp or type); with an account, the transactions it paid,
 * the entity_transaction index (filled by importers that record every entity a transaction touches, such as NFT
 * senders and receivers) and its crypto and token transfers; with a credit/debit filter, the transfers alone.
 */
export function listTransactions(db: Database, query: TransactionListQuery): Promise<TransactionRow[]> {
  const direction = sql.raw(query.order);
  return db.rows<TransactionRow>(sql`
    with page as (${pageKeys(query)})
    select ${transactionDetailColumns({ assessedFees: false })}, ${COMMITTED_END} as committed_end
      from page p
      join transaction t on t.consensus_timestamp = p.consensus_timestamp and t.payer_account_id = p.payer_account_id
     order by t.consensus_timestamp ${direction}`);
}

/** `(consensus_timestamp, payer_account_id)` of the page's transactions, in order, at most `limit`. */
function pageKeys(query: TransactionListQuery): SQL {
  const { limit } = query;
  const direction = sql.raw(query.order);
  if (query.transferSign !== undefined) {
    return sql`
      select coalesce(ctl.consensus_timestamp, ttl.consensus_timestamp) as consensus_timestamp,
             coalesce(ctl.payer_account_id, ttl.payer_account_id) as payer_account_id
        from (${transferKeys(query, 'crypto_transfer', 'entity_id')}) ctl
        full outer join (${transferKeys(query, 'token_transfer', 'account_id')}) ttl
          on ctl.consensus_timestamp = ttl.consensus_timestamp
       order by 1 ${direction}
       limit ${limitOf(limit)}`;
  }
  if (query.accounts.length === 0) {
    return sql`
      select t.consensus_timestamp, t.payer_account_id
        from transaction t
       where ${and([...timestampConditions(sql`t.consensus_timestamp`, query.timestamp), ...transactionConditions(query, sql`t.result`, sql`t.type`)])}
       order by t.consensus_timestamp ${direction}
       limit ${limitOf(limit)}`;
  }
  return sql`
    select coalesce(t.consensus_timestamp, ctl.consensus_timestamp, ttl.consensus_timestamp) as consensus_timestamp,
           coalesce(t.payer_account_id, ctl.payer_account_id, ttl.payer_account_id) as payer_account_id
      from (${payerOrEntityKeys(query)}) t
      full outer join (${transferKeys(query, 'crypto_transfer', 'entity_id')}) ctl
        on t.consensus_timestamp = ctl.consensus_timestamp
      full outer join (${transferKeys(query, 'token_transfer', 'account_id')}) ttl
        on coalesce(t.consensus_timestamp, ctl.consensus_timestamp) = ttl.consensus_timestamp
     order by 1 ${direction}
     limit ${limitOf(limit)}`;
}

/**
 * Transactions the account paid for (user-submitted ones, not the synthetic children of another) and those that
 * entity_transaction links to the account.
 */
function payerOrEntityKeys(query: TransactionListQuery): SQL {
  const { limit } = query;
  const direction = sql.raw(query.order);
  const preceding =
    query.precedingTypes.length > 0 ? sql` or t.type in (${sql.join([...query.precedingTypes], sql`, `)})` : sql``;
  const paid = and([
    ...accountConditions(sql`t.payer_account_id`, query.accounts),
    sql`(t.nonce = 0 or t.parent_consensus_timestamp is not null${preceding})`,
    ...timestampConditions(sql`t.consensus_timestamp`, query.timestamp),
    ...transactionConditions(query, sql`t.result`, sql`t.type`),
  ]);
  const linked = and([
    ...accountConditions(sql`e.entity_id`, query.accounts),
    ...timestampConditions(sql`e.consensus_timestamp`, query.timestamp),
    ...transactionConditions(query, sql`e.result`, sql`e.type`),
  ]);
  return sql`
    select distinct on (u.consensus_timestamp, u.payer_account_id) u.consensus_timestamp, u.payer_account_id
      from ((select t.consensus_timestamp, t.payer_account_id
               from transaction t
              where ${paid}
              order by t.consensus_timestamp ${direction}
              limit ${limitOf(limit)})
            union all
            (select e.consensus_timestamp, e.payer_account_id
               from entity_transaction e
              where ${linked}
              order by e.consensus_timestamp ${direction}
              limit ${limitOf(limit)})) u
     order by u.consensus_timestamp ${direction}
     limit ${limitOf(limit)}`;
}

/**
 * Distinct consensus timestamps of a transfer table's rows for the account and the credit/debit sign. A result or
 * type filter joins the transfer's transaction.
 */
function transferKeys(
  query: TransactionListQuery,
  table: 'crypto_transfer' | 'token_transfer',
  accountColumn: 'entity_id' | 'account_id',
): SQL {
  const direction = sql.raw(query.order);
  const needsTransaction = query.result !== undefined || query.types.length > 0;
  const join = needsTransaction
    ? sql`join transaction t on t.consensus_timestamp = x.consensus_timestamp and t.payer_account_id = x.payer_account_id`
    : sql``;
  const conditions = [
    ...accountConditions(sql.raw(`x.${accountColumn}`), query.accounts),
    // Spelled out so the planner can use the crypto transfer account index, which leaves out the fee account; as
    // a literal, because a parameter would not prove the index's predicate in a plan made for all values.
    ...(table === 'crypto_transfer' && query.accounts.length > 0 && !admits(query.accounts, FEE_COLLECTOR_ACCOUNT)
      ? [sql.raw(`x.entity_id <> ${FEE_COLLECTOR_ACCOUNT}`)]
      : []),
    ...timestampConditions(sql`x.consensus_timestamp`, query.timestamp),
    ...transactionConditions(query, sql`t.result`, sql`t.type`),
  ];
  if (query.transferSign !== undefined)
    conditions.push(sql.raw(`x.amount ${query.transferSign === 'credit' ? '>' : '<'} 0`));
  return sql`
    select distinct on (x.consensus_timestamp) x.consensus_timestamp, x.payer_account_id
      from ${sql.raw(table)} x ${join}
     where ${and(conditions)}
     order by x.consensus_timestamp ${direction}
     limit ${limitOf(query.limit)}`;
}

/** True when `account` meets every condition (an `eq` list is one condition: any of its ids). */
function admits(conditions: readonly AccountCondition[], account: bigint): boolean {
  const eq = conditions.filter((c) => c.operator === 'eq');
  if (eq.length > 0 && !eq.some((c) => c.account === account)) return false;
  const compare: Record<ComparisonOperator, (value: bigint) => boolean> = {
    eq: () => true,
    ne: (value) => account !== value,
    lt: (value) => account < value,
    lte: (value) => account <= value,
    gt: (value) => account > value,
    gte: (value) => account >= value,
  };
  return conditions.every(({ operator, account: value }) => value !== null && compare[operator](value));
}

function accountConditions(column: SQL, accounts: readonly AccountCondition[]): SQL[] {
  return idConditions(
    column,
    accounts.map(({ operator, account }) => ({ operator, value: account })),
  );
}

function timestampConditions(column: SQL, bounds: ConsensusBounds): SQL[] {
  const conditions: SQL[] = [];
  if (bounds.lower !== null) conditions.push(sql`${column} >= ${bounds.lower}`);
  if (bounds.upper !== null) conditions.push(sql`${column} <= ${bounds.upper}`);
  if (bounds.ne.length > 0) conditions.push(sql`${column} not in (${sql.join([...bounds.ne], sql`, `)})`);
  if (bounds.eq !== null) conditions.push(sql`${column} = ${bounds.eq}`);
  return conditions;
}

function transactionConditions(query: TransactionListQuery, result: SQL, type: SQL): SQL[] {
  const conditions: SQL[] = [];
  if (query.result !== undefined) {
    const operator = sql.raw(query.result === 'success' ? 'in' : 'not in');
    conditions.push(sql`${result} ${operator} (${sql.join([...SUCCESS_CODES], sql`, `)})`);
  }
  if (query.types.length === 1) conditions.push(sql`${type} = ${query.types[0]}`);
  else if (query.types.length > 1) conditions.push(sql`${type} in (${sql.join([...query.types], sql`, `)})`);
  return conditions;
}

const and = (conditions: readonly SQL[]): SQL =>
  conditions.length === 0 ? sql`true` : sql.join([...conditions], sql` and `);

/** The consensus timestamp of the oldest transaction (the start of the data), or undefined for none. */
export async function firstTransactionTimestamp(db: Database): Promise<bigint | undefined> {
  const rows = await db.rows<{ consensus_timestamp: string }>(sql`
    select consensus_timestamp from transaction order by consensus_timestamp limit 1`);
  const first = rows[0];
  return first === undefined ? undefined : BigInt(first.consensus_timestamp);
}
