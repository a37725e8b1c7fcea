/**
 * An account's hbar balance at the end of a block, as the reference's Rosetta computes it
 * (rosetta/app/persistence/account.go): the account's balance in the latest snapshot the treasury is in (the
 * balance files and the importer's snapshots), plus its crypto transfers after that snapshot up to the block's end.
 * An account deleted by then keeps the balance it had when it was deleted. One statement finds the block and
 * computes the balance at its end.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import {
  BLOCK_COLUMNS,
  type BlockColumns,
  type BlockSelector,
  blockCtes,
  blocksOf,
  type RosettaBlock,
} from './rosetta-blocks.ts';

/** Which account: by encoded id, or by alias (the serialized key). */
export type BalanceAccount = { readonly id: bigint } | { readonly alias: Uint8Array };

export interface RosettaBalance {
  /** The entity the account is at the block's end; null when none is (an id not yet created, an alias unknown). */
  entity_id: string | null;
  /** The entity's key (protobuf), for the ED25519 public key the answer's metadata names. */
  key: Uint8Array | null;
  /** Null: the treasury has no balance snapshot at or before the block yet (the reference's "node is starting"). */
  snapshot_timestamp: string | null;
  /** The snapshot's balance plus the transfers after it. */
  balance: string;
}

/** 0.0.98, left out of the crypto transfer account index; nobody gives it an alias. */
const FEE_COLLECTOR = 98n;

const ENTITY_COLUMNS = sql`id, deleted, key, lower(timestamp_range) as modified, timestamp_range`;
const END = sql`(select consensus_end from block)`;

/** The entity at the block's end: by id an account or contract, by alias any entity holding it (the latest first). */
function entityAt(account: BalanceAccount): SQL {
  const condition =
    'id' in account ? sql`type in ('ACCOUNT', 'CONTRACT') and id = ${account.id}` : sql`alias = ${account.alias}`;
  return sql`
    select ${ENTITY_COLUMNS} from entity where ${condition} and timestamp_range @> ${END}
    union all
    select ${ENTITY_COLUMNS} from entity_history where ${condition} and timestamp_range @> ${END}
    order by timestamp_range desc
    limit 1`;
}

type Row = BlockColumns & RosettaBalance;

/**
 * The block `selector` names and the balance of `account` at its end; `treasury` is the encoded id whose first
 * snapshot defines genesis and whose snapshots mark the balance snapshots. `balance` is undefined when there is no
 * such block (or no genesis block yet).
 */
export async function rosettaBalance(
  db: Database,
  account: BalanceAccount,
  selector: BlockSelector,
  treasury: bigint,
): Promise<Omit<RosettaBlock, 'transactions'> & { balance?: RosettaBalance }> {
  const accountId = 'id' in account ? sql`${account.id}::bigint` : sql`target.id`;
  // A literal, so that a plan made for every value can still use the index that leaves 0.0.98 out.
  const indexed = !('id' in account) || account.id !== FEE_COLLECTOR;
  const notFeeCollector = indexed ? sql.raw(`and ct.entity_id <> ${FEE_COLLECTOR}`) : sql``;
  const rows = await db.rows<Row>(sql`
    with ${blockCtes(selector, treasury)},
    target as (${entityAt(account)}),
    bounds as (
      select ${accountId} as account_id,
             -- deleted by the block's end: the transfers up to the deletion, the snapshot from before it
             case when target.deleted and target.modified <= block.consensus_end then target.modified
                  else block.consensus_end end as change_end,
             case when target.deleted and target.modified <= block.consensus_end then target.modified - 1
                  else block.consensus_end end as snapshot_end
        from block left join target on true
    ),
    snapshot as (
      select ab.consensus_timestamp
        from account_balance ab, bounds
       where ab.account_id = ${treasury} and ab.consensus_timestamp <= bounds.snapshot_end
       order by ab.consensus_timestamp desc
       limit 1
    )
    select ${BLOCK_COLUMNS}, (select id from target) as entity_id, (select key from target) as key,
           snapshot.consensus_timestamp as snapshot_timestamp,
           coalesce((select ab.balance
                       from account_balance ab
                      where ab.account_id = bounds.account_id and ab.consensus_timestamp <= snapshot.consensus_timestamp
                      order by ab.consensus_timestamp desc
                      limit 1), 0)
           + coalesce((select sum(ct.amount)
                         from crypto_transfer ct
                        where ct.entity_id = bounds.account_id ${notFeeCollector}
                          and ct.consensus_timestamp > snapshot.consensus_timestamp
                          and ct.consensus_timestamp <= bounds.change_end
                          and (ct.errata is null or ct.errata <> 'DELETE')), 0) as balance
      from genesis
      left join block on true
      left join bounds on true
      left join snapshot on true`);
  const first = rows[0];
  const blocks = blocksOf(first);
  if (!first || !blocks.block) return blocks;
  const { entity_id, key, snapshot_timestamp, balance } = first;
  return { ...blocks, balance: { entity_id, key, snapshot_timestamp, balance: String(balance) } };
}
