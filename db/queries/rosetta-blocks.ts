/**
 * The Rosetta API's blocks and their transactions (the reference's rosetta/app/persistence/block.go and
 * transaction.go), each answer in one statement. A block is a record file; the genesis block is the first record
 * file that ends after the treasury's first balance snapshot, starting just after that snapshot; every block ends
 * just before the next one starts, so a transaction between two files belongs to the earlier one.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';

/** Which block: the latest, by number, by hash (lowercase hex, no `0x`), or by hash checked against a number. */
export type BlockSelector =
  | { readonly kind: 'latest' }
  | { readonly kind: 'index'; readonly index: bigint }
  | { readonly kind: 'hash'; readonly hash: string };

/** Which of the block's transactions to read with it. */
export type TransactionSelection = 'none' | 'all' | { readonly hash: Uint8Array };

/** A block as Rosetta sees it; int8 columns are strings. */
export interface RosettaBlockRow extends Record<string, unknown> {
  index: string;
  hash: string;
  prev_hash: string;
  /** The genesis block's is the nanosecond after the genesis snapshot. */
  consensus_start: string;
  /** The nanosecond before the next block starts, or the file's own end for the latest. */
  consensus_end: string;
  /** Whether a later block exists: the block is below the tip and its answers never change. */
  has_next: boolean;
}

/** A transaction with its hbar transfers (JSON arrays: `account_id`, `amount`, `alias` hex or null). */
export interface RosettaTransactionRow extends Record<string, unknown> {
  consensus_timestamp: string;
  entity_id: string | null;
  itemized_transfer: unknown;
  memo: Uint8Array | null;
  payer_account_id: string;
  payer_alias: string | null;
  result: number;
  transaction_hash: Uint8Array | null;
  type: number;
  crypto_transfers: unknown;
  staking_reward_payouts: unknown;
}

export interface RosettaBlock {
  /** Undefined until the treasury has a balance snapshot and a record file ends after it ("node is starting"). */
  genesis?: { index: string; hash: string; consensus_start: string };
  /** Undefined when no block matches at or after the genesis block. */
  block?: RosettaBlockRow;
  transactions: RosettaTransactionRow[];
}

const GENESIS = (treasury: bigint) => sql`
  genesis as (
    select rf.index, rf.hash, greatest(rf.consensus_start, g.timestamp + 1) as consensus_start
      from (select consensus_timestamp as timestamp
              from account_balance
             where account_id = ${treasury}
             order by consensus_timestamp
             limit 1) g
      join record_file rf on rf.consensus_end > g.timestamp
     order by rf.consensus_end
     limit 1
  )`;

function selected(selector: BlockSelector): SQL {
  const columns = sql`b.index, b.hash, b.prev_hash, b.consensus_start, b.consensus_end,
           (select n.consensus_start from record_file n where n.index = b.index + 1) as next_start
      from record_file b`;
  switch (selector.kind) {
    case 'latest':
      return sql`select ${columns} order by b.index desc limit 1`;
    case 'index':
      return sql`select ${columns} where b.index = ${selector.index} limit 1`;
    case 'hash':
      return sql`select ${columns} where b.hash collate "C" = ${selector.hash} limit 1`;
  }
}

/** An account's alias in hex, from the current entity row (as the reference reads it for every operation). */
const aliasOf = (id: SQL) =>
  sql`(select encode(e.alias, 'hex') from entity e where e.id = ${id} and e.alias is not null)`;

function transactionsOf(selection: TransactionSelection): SQL {
  if (selection === 'none') return sql`select null::bigint as consensus_timestamp where false`;
  const byHash = selection === 'all' ? sql`` : sql`and t.transaction_hash = ${selection.hash}`;
  return sql`
    select t.consensus_timestamp, t.entity_id, t.itemized_transfer, t.memo, t.payer_account_id,
           ${aliasOf(sql`t.payer_account_id`)} as payer_alias, t.result, t.transaction_hash, t.type,
           coalesce((select json_agg(json_build_object('account_id', ct.entity_id, 'amount', ct.amount,
                                                       'alias', ${aliasOf(sql`ct.entity_id`)})
                                     order by ct.entity_id)
                       from crypto_transfer ct
                      where ct.consensus_timestamp = t.consensus_timestamp
                        and (ct.errata is null or ct.errata <> 'DELETE')), '[]') as crypto_transfers,
           coalesce((select json_agg(json_build_object('account_id', s.account_id, 'amount', s.amount)
                                     order by s.account_id)
                       from staking_reward_transfer s
                      where s.consensus_timestamp = t.consensus_timestamp), '[]') as staking_reward_payouts
      from transaction t
     where t.consensus_timestamp >= block.consensus_start and t.consensus_timestamp <= block.consensus_end ${byHash}
     order by t.consensus_timestamp`;
}

/** The columns `BLOCK_COLUMNS` adds to a row: the genesis block's, and the block's (null when none matched). */
export interface BlockColumns extends Record<string, unknown> {
  genesis_index: string;
  genesis_hash: string;
  genesis_start: string;
  index: string | null;
  hash: string | null;
  prev_hash: string | null;
  block_start: string | null;
  block_end: string | null;
  has_next: boolean | null;
}

/**
 * `genesis`, `found` and `block`: the common table expressions of a statement about the block `selector` names (at
 * or after the genesis block); `treasury` is the encoded id of the treasury, whose first snapshot defines genesis.
 */
export function blockCtes(selector: BlockSelector, treasury: bigint): SQL {
  return sql`${GENESIS(treasury)},
    found as (${selected(selector)}),
    block as (
      select f.index, f.hash, f.prev_hash,
             case when f.index = genesis.index then genesis.consensus_start else f.consensus_start end
               as consensus_start,
             coalesce(f.next_start - 1, f.consensus_end) as consensus_end,
             f.next_start is not null as has_next
        from found f, genesis
       where f.index >= genesis.index
    )`;
}

/** The select list of `BlockColumns`, over `genesis left join block`. */
export const BLOCK_COLUMNS = sql`genesis.index as genesis_index, genesis.hash as genesis_hash,
  genesis.consensus_start as genesis_start, block.index, block.hash, block.prev_hash,
  block.consensus_start as block_start, block.consensus_end as block_end, block.has_next`;

/** The genesis block and the block of a statement's first row (`rows[0]`; no row: no genesis block yet). */
export function blocksOf(first: BlockColumns | undefined): Omit<RosettaBlock, 'transactions'> {
  if (!first) return {};
  const genesis = { index: first.genesis_index, hash: first.genesis_hash, consensus_start: first.genesis_start };
  if (first.index === null || first.hash === null || first.prev_hash === null) return { genesis };
  const block: RosettaBlockRow = {
    index: first.index,
    hash: first.hash,
    prev_hash: first.prev_hash,
    consensus_start: first.block_start as string,
    consensus_end: first.block_end as string,
    has_next: first.has_next === true,
  };
  return { genesis, block };
}

/**
 * The block `selector` names (not before the genesis block), with the transactions `selection` asks for, in
 * consensus order; `treasury` is the encoded id of the treasury account, whose first snapshot defines genesis.
 */
export async function rosettaBlock(
  db: Database,
  selector: BlockSelector,
  selection: TransactionSelection,
  treasury: bigint,
): Promise<RosettaBlock> {
  const rows = await db.rows<BlockColumns & Partial<RosettaTransactionRow>>(sql`
    with ${blockCtes(selector, treasury)}
    select ${BLOCK_COLUMNS}, tx.*
      from genesis
      left join block on true
      left join lateral (${transactionsOf(selection)}) tx on block.index is not null`);
  const blocks = blocksOf(rows[0]);
  if (!blocks.block) return { ...blocks, transactions: [] };
  const transactions = rows.filter((row) => row.consensus_timestamp !== null && row.consensus_timestamp !== undefined);
  return { ...blocks, transactions: transactions as RosettaTransactionRow[] };
}
