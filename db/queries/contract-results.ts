import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { COMMITTED_END, committedValue } from './committed-end.ts';
import { type Comparison, compare } from './comparison.ts';
import { limitOf } from './limit.ts';

/** A contract_result row with the contract's EVM address (empty when unknown). int8 columns are strings. */
export interface ContractResultRow extends Record<string, unknown> {
  amount: string | null;
  bloom: Uint8Array | null;
  call_result: Uint8Array | null;
  consensus_timestamp: string;
  contract_id: string;
  created_contract_ids: string[] | null;
  error_message: string | null;
  failed_initcode: Uint8Array | null;
  function_parameters: Uint8Array;
  /** Only when the sender is unknown (it may name the sender by alias); empty otherwise. */
  function_result: Uint8Array | null;
  gas_consumed: string | null;
  gas_limit: string;
  gas_used: string | null;
  payer_account_id: string;
  sender_id: string | null;
  transaction_hash: Uint8Array | null;
  transaction_index: number | null;
  transaction_nonce: number;
  transaction_result: number;
  evm_address: Uint8Array;
}

/** The Ethereum transaction behind a contract result (`ethereum_transaction`), columns prefixed `et_`. */
export interface EthereumTransactionFields {
  et_access_list: Uint8Array | null;
  et_authorization_list: unknown[] | null;
  et_chain_id: Uint8Array | null;
  et_gas_price: Uint8Array | null;
  et_max_fee_per_gas: Uint8Array | null;
  et_max_priority_fee_per_gas: Uint8Array | null;
  et_nonce: string | null;
  et_signature_r: Uint8Array | null;
  et_signature_s: Uint8Array | null;
  et_signature_v: Uint8Array | null;
  et_type: number | null;
  et_recovery_id: number | null;
  et_to_address: Uint8Array | null;
  et_value: Uint8Array | null;
  /** Only where the reference reads them (the single result routes). */
  et_gas_limit?: string | null;
  et_call_data?: Uint8Array | null;
  et_call_data_id?: string | null;
}

/** The record file (block) holding a contract result, columns prefixed `rf_`; null when none. */
export interface BlockFields {
  rf_hash: string | null;
  rf_index: string | null;
  rf_gas_used: string | null;
}

export type ContractResultListRow = ContractResultRow & EthereumTransactionFields & BlockFields & { et_found: boolean };

export const RESULT_COLUMNS = sql.raw(`cr.amount, cr.bloom, cr.call_result, cr.consensus_timestamp, cr.contract_id,
  cr.created_contract_ids, cr.error_message, cr.failed_initcode, cr.function_parameters,
  case when cr.sender_id is null then cr.function_result else ''::bytea end as function_result,
  cr.gas_consumed, cr.gas_limit, cr.gas_used, cr.payer_account_id, cr.sender_id, cr.transaction_hash,
  cr.transaction_index, cr.transaction_nonce, cr.transaction_result,
  coalesce(e.evm_address, ''::bytea) as evm_address`);

export const ETHEREUM_COLUMNS = sql.raw(`et.access_list as et_access_list,
  et.authorization_list as et_authorization_list, et.chain_id as et_chain_id, et.gas_price as et_gas_price,
  et.max_fee_per_gas as et_max_fee_per_gas, et.max_priority_fee_per_gas as et_max_priority_fee_per_gas,
  et.nonce as et_nonce, et.signature_r as et_signature_r, et.signature_s as et_signature_s,
  et.signature_v as et_signature_v, et.type as et_type, et.recovery_id as et_recovery_id,
  et.to_address as et_to_address, et.value as et_value`);

/** The block a contract result's timestamp falls in: by block number or by (a prefix of) its hash. */
export type BlockKey = { number: bigint } | { hashPrefix: string };

export interface ContractResultsQuery {
  contractId?: bigint;
  /** `sender_id in (...)` (empty: no condition) and other comparisons on the sender. */
  senders: readonly bigint[];
  senderComparisons: readonly Comparison<bigint>[];
  /** `consensus_timestamp in (...)` and other comparisons. */
  timestamps: readonly bigint[];
  timestampComparisons: readonly Comparison<bigint>[];
  transactionIndexes: readonly bigint[];
  /** Restrict to the results inside this block. */
  block?: BlockKey;
  /** Include the results of child (internal) transactions, whose nonce is not 0. */
  internal: boolean;
  order: 'asc' | 'desc';
  limit: number;
}

function conditions(query: ContractResultsQuery): SQL[] {
  const out: SQL[] = [];
  if (query.contractId !== undefined) out.push(sql`cr.contract_id = ${query.contractId}`);
  for (const comparison of query.senderComparisons) out.push(compare(sql`cr.sender_id`, comparison));
  for (const comparison of query.timestampComparisons) out.push(compare(sql`cr.consensus_timestamp`, comparison));
  if (query.senders.length > 0) out.push(sql`cr.sender_id in (${sql.join([...query.senders], sql`, `)})`);
  if (query.timestamps.length > 0) {
    out.push(sql`cr.consensus_timestamp in (${sql.join([...query.timestamps], sql`, `)})`);
  }
  if (query.transactionIndexes.length > 0) {
    // an int4 column: the values (up to 2^63 - 1) are compared as bigint
    const indexes = query.transactionIndexes.map((index) => sql`${index}::bigint`);
    out.push(sql`cr.transaction_index in (${sql.join(indexes, sql`, `)})`);
  }
  if (!query.internal) out.push(sql`cr.transaction_nonce = 0`);
  return out;
}

/**
 * The filtered page of contract results in timestamp order: `contract_result__id_timestamp` with a contract,
 * `contract_result__sender_timestamp` by sender, else the primary key. A block filter bounds the timestamps by
 * the block's range.
 */
function resultsPage(query: ContractResultsQuery): SQL {
  const where = conditions(query);
  let block = sql``;
  if (query.block !== undefined) {
    const key =
      'number' in query.block ? sql`index = ${query.block.number}` : sql`hash like ${`${query.block.hashPrefix}%`}`;
    block = sql`with block as (select consensus_start, consensus_end from record_file where ${key} limit 1)`;
    // scalar bounds (null without a block: nothing matches) keep the walk an index range scan
    where.push(sql`cr.consensus_timestamp >= (select consensus_start from block)`);
    where.push(sql`cr.consensus_timestamp <= (select consensus_end from block)`);
  }
  return sql`
    ${block}
    select ${RESULT_COLUMNS}
      from contract_result cr
      left join entity e on e.id = cr.contract_id
      ${where.length > 0 ? sql`where ${sql.join(where, sql` and `)}` : sql``}
     order by cr.consensus_timestamp ${sql.raw(query.order)}
     limit ${limitOf(query.limit)}`;
}

/** `/contracts/{id}/results`: the page of results, each with the statement's `COMMITTED_END`. */
export function contractResults(
  db: Database,
  query: ContractResultsQuery,
): Promise<(ContractResultRow & { committed_end: string | null })[]> {
  return db.rows(sql`
    select page.*, ${COMMITTED_END} as committed_end
      from (${resultsPage(query)}) page
     order by page.consensus_timestamp ${sql.raw(query.order)}`);
}

/**
 * `/contracts/results`: the page of results, each with its Ethereum transaction (matched by timestamp and a payer of
 * the page) and the record file that contains it (the first closing at or after it, at most `closeIntervalNs` after
 * the page's last timestamp), and the statement's `COMMITTED_END`, which an empty page needs too. One statement.
 */
export async function contractResultsWithDetails(
  db: Database,
  query: ContractResultsQuery,
  closeIntervalNs: bigint,
): Promise<{ rows: ContractResultListRow[]; committedEnd: bigint | null }> {
  const rows = await db.rows<ContractResultListRow & { committed_end: string | null }>(sql`
    with page as (${resultsPage(query)})
    select page.*, et.consensus_timestamp is not null as et_found, ${ETHEREUM_COLUMNS},
           rf.hash as rf_hash, rf.index as rf_index, rf.gas_used as rf_gas_used, w.committed_end
      from (select ${COMMITTED_END} as committed_end) w
      left join page on true
      left join ethereum_transaction et
        on et.consensus_timestamp = page.consensus_timestamp
       and et.payer_account_id in (select payer_account_id from page)
      left join lateral (
        select r.consensus_start, r.hash, r.index, r.gas_used
          from record_file r
         where r.consensus_end >= page.consensus_timestamp
           and r.consensus_end <= (select max(consensus_timestamp) from page) + ${closeIntervalNs}
         order by r.consensus_end
         limit 1) rf on rf.consensus_start <= page.consensus_timestamp
     order by page.consensus_timestamp ${sql.raw(query.order)}`);
  // An empty page is the one row of the committed end alone.
  return {
    rows: rows.filter((row) => row.consensus_timestamp !== null),
    committedEnd: committedValue(rows[0]?.committed_end),
  };
}

/** The consensus timestamp of the first transaction, or undefined for an empty ledger. */
export async function firstTransactionTimestamp(db: Database): Promise<bigint | undefined> {
  const rows = await db.rows<{ consensus_timestamp: string }>(
    sql`select consensus_timestamp from transaction order by consensus_timestamp limit 1`,
  );
  return rows[0] ? BigInt(rows[0].consensus_timestamp) : undefined;
}
