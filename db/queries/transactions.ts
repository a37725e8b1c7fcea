import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { bytesBytea } from './bytea.ts';
import { COMMITTED_END } from './committed-end.ts';
import { limitOf } from './limit.ts';

/** The staking reward account (0.0.800): a transfer from it means the transaction paid staking rewards. */
const STAKING_REWARD_ACCOUNT = 800n;

/** A crypto transfer as `[amount, entity_id, is_approval]`. */
export type TransferJson = [amount: number, entityId: number, isApproval: boolean | null];

/** A token transfer as `[token_id, account_id, amount, is_approval]`. */
export type TokenTransferJson = [tokenId: number, accountId: number, amount: number, isApproval: boolean | null];

export interface AssessedCustomFeeJson {
  amount: number;
  collector_account_id: number;
  effective_payer_account_ids: number[] | null;
  token_id: number | null;
}

export interface NftTransferJson {
  is_approval: boolean | null;
  receiver_account_id: number | null;
  sender_account_id: number | null;
  serial_number: number;
  token_id: number;
}

/** A transaction row with its transfers, as the transaction routes format it. int8 columns are strings. */
export interface TransactionRow extends Record<string, unknown> {
  batch_key: Uint8Array | null;
  charged_tx_fee: string | null;
  consensus_timestamp: string;
  entity_id: string | null;
  high_volume: boolean | null;
  high_volume_pricing_multiplier: string | null;
  inner_transactions: string[] | null;
  max_custom_fees: Uint8Array[] | null;
  max_fee: string | null;
  memo: Uint8Array | null;
  nft_transfer: NftTransferJson[] | null;
  node_account_id: string | null;
  nonce: number;
  parent_consensus_timestamp: string | null;
  payer_account_id: string;
  result: number;
  scheduled: boolean;
  transaction_bytes: Uint8Array | null;
  transaction_hash: Uint8Array | null;
  type: number;
  valid_duration_seconds: string | null;
  valid_start_ns: string;
  index: number | null;
  crypto_transfer_list: TransferJson[] | null;
  token_transfer_list: TokenTransferJson[] | null;
  /** Absent when the query did not select it (the list route). */
  assessed_custom_fees?: AssessedCustomFeeJson[] | null;
  staking_reward_transfers: { account: number; amount: number }[] | null;
  /** `COMMITTED_END` of the statement, where it selects it (the transaction routes, for their final answers). */
  committed_end?: string | null;
}

/** A transaction key: its payer (may be unknown for a hash lookup) and its valid start or consensus timestamp. */
export interface TransactionKey {
  payer: bigint | null;
  timestamp: bigint;
}

export interface TransactionLookup {
  keys: readonly TransactionKey[];
  /** What `keys[].timestamp` is. */
  by: 'valid_start_ns' | 'consensus_timestamp';
  /** Inclusive consensus timestamp bounds that contain every match (they keep the scan on the primary key). */
  lowerNs: bigint;
  upperNs: bigint;
  nonce?: number;
  scheduled?: boolean;
}

/**
 * Transactions matching any of the keys within the consensus bounds, each with its crypto, token and assessed
 * custom fee transfers and its staking reward payouts, in consensus order: one statement.
 */
export function transactionsByKeys(db: Database, lookup: TransactionLookup): Promise<TransactionRow[]> {
  const byColumn = lookup.by === 'valid_start_ns' ? sql`t.valid_start_ns` : sql`t.consensus_timestamp`;
  const keyConditions = lookup.keys.map((key) =>
    key.payer === null
      ? sql`${byColumn} = ${key.timestamp}`
      : sql`(t.payer_account_id = ${key.payer} and ${byColumn} = ${key.timestamp})`,
  );
  const payers = [...new Set(lookup.keys.flatMap((key) => (key.payer === null ? [] : [key.payer])))];
  const conditions: SQL[] = [
    sql`t.consensus_timestamp >= ${lookup.lowerNs}`,
    sql`t.consensus_timestamp <= ${lookup.upperNs}`,
    sql`(${sql.join(keyConditions, sql` or `)})`,
  ];
  if (lookup.nonce !== undefined) conditions.push(sql`t.nonce = ${lookup.nonce}`);
  if (lookup.scheduled !== undefined) conditions.push(sql`t.scheduled = ${lookup.scheduled}`);
  // The transfer tables are partitioned by time in the reference's distributed schema: bounding them by the same
  // consensus range (and payer) keeps each lookup on one partition and its index.
  const transferBounds = (alias: string) => {
    const parts = [
      sql`${sql.raw(alias)}.consensus_timestamp >= ${lookup.lowerNs}`,
      sql`${sql.raw(alias)}.consensus_timestamp <= ${lookup.upperNs}`,
    ];
    if (payers.length > 0) parts.push(sql`${sql.raw(alias)}.payer_account_id in (${sql.join(payers, sql`, `)})`);
    return sql.join(parts, sql` and `);
  };
  return db.rows<TransactionRow>(sql`
    select ${transactionDetailColumns({ assessedFees: true, transferBounds })}, ${COMMITTED_END} as committed_end
      from transaction t
     where ${sql.join(conditions, sql` and `)}
     order by t.consensus_timestamp`);
}

export interface DetailColumnOptions {
  /** Select `assessed_custom_fees` (the single-transaction route does, the list does not). */
  assessedFees: boolean;
  /** Extra conditions on a transfer table (by its alias) that narrow its lookup without changing the result. */
  transferBounds?: (alias: string) => SQL;
}

/**
 * The select list of a transaction row (alias `t`) as the formatter reads it: its columns plus its transfers
 * aggregated from the transfer tables, each found through its consensus timestamp index. The aggregates are json,
 * not jsonb: built and printed as text, they cost Postgres a fifth less for a page of transactions. The transfers
 * are arrays rather than objects: without their key names, a page costs all processes together 9% less CPU.
 */
export function transactionDetailColumns(options: DetailColumnOptions): SQL {
  const bounds = (alias: string) => (options.transferBounds ? sql` and ${options.transferBounds(alias)}` : sql``);
  const assessedFees = options.assessedFees
    ? sql`,
           (select json_agg(json_build_object('amount', acf.amount, 'collector_account_id', acf.collector_account_id,
                                                'effective_payer_account_ids', acf.effective_payer_account_ids,
                                                'token_id', acf.token_id)
                             order by acf.collector_account_id, acf.amount)
              from assessed_custom_fee acf
             where acf.consensus_timestamp = t.consensus_timestamp and acf.payer_account_id = t.payer_account_id
               ${bounds('acf')}) as assessed_custom_fees`
    : sql``;
  return sql`t.batch_key, t.charged_tx_fee, t.consensus_timestamp, t.entity_id, t.high_volume,
           t.high_volume_pricing_multiplier, t.inner_transactions, t.max_custom_fees, t.max_fee, t.memo,
           t.nft_transfer, t.node_account_id, t.nonce, t.parent_consensus_timestamp, t.payer_account_id, t.result,
           t.scheduled, t.transaction_bytes, t.transaction_hash, t.type, t.valid_duration_seconds, t.valid_start_ns,
           t.index,
           (select json_agg(json_build_array(ct.amount, ct.entity_id, ct.is_approval) order by ct.entity_id, ct.amount)
              from crypto_transfer ct
             where ct.consensus_timestamp = t.consensus_timestamp and ct.payer_account_id = t.payer_account_id
               ${bounds('ct')}) as crypto_transfer_list,
           (select json_agg(json_build_array(tt.token_id, tt.account_id, tt.amount, tt.is_approval)
                             order by tt.token_id, tt.account_id)
              from token_transfer tt
             where tt.consensus_timestamp = t.consensus_timestamp and tt.payer_account_id = t.payer_account_id
               ${bounds('tt')}) as token_transfer_list${assessedFees},
           case when exists (select 1 from crypto_transfer ct
                              where ct.consensus_timestamp = t.consensus_timestamp
                                and ct.payer_account_id = t.payer_account_id
                                and ct.entity_id = ${STAKING_REWARD_ACCOUNT}
                                ${bounds('ct')})
                then (select json_agg(json_build_object('account', srt.account_id, 'amount', srt.amount))
                        from staking_reward_transfer srt
                       where srt.consensus_timestamp = t.consensus_timestamp)
           end as staking_reward_transfers`;
}

/**
 * The transactions whose 48-byte SHA-384 hash is `hash` (a hash repeats for duplicate submissions), in consensus
 * order, with what `transactionsByKeys` selects: one statement. The hash is found through the schema's function,
 * which reads the one partition holding the hash's first byte; at most `limit` of its rows are considered.
 */
export function transactionsByHash(
  db: Database,
  hash: Uint8Array,
  options: { limit: number; nonce?: number; scheduled?: boolean },
): Promise<TransactionRow[]> {
  const conditions: SQL[] = [sql`true`];
  if (options.nonce !== undefined) conditions.push(sql`t.nonce = ${options.nonce}`);
  if (options.scheduled !== undefined) conditions.push(sql`t.scheduled = ${options.scheduled}`);
  return db.rows<TransactionRow>(sql`
    with matches as (
      select h.consensus_timestamp, h.payer_account_id
        from (select consensus_timestamp, hash, payer_account_id
                from get_transaction_info_by_hash(${bytesBytea(hash.subarray(0, 32))})
               order by consensus_timestamp asc
               limit ${limitOf(options.limit)}) h
       where h.hash = ${bytesBytea(hash)})
    select ${transactionDetailColumns({ assessedFees: true })}, ${COMMITTED_END} as committed_end
      from matches m
      join transaction t on t.consensus_timestamp = m.consensus_timestamp
                        and (m.payer_account_id is null or t.payer_account_id = m.payer_account_id)
     where ${sql.join(conditions, sql` and `)}
     order by t.consensus_timestamp`);
}
