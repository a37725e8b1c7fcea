/**
 * An account's hbar balance at the end of a block, as the reference's Rosetta computes it
 * (rosetta/app/persistence/account.go): the account's balance in the latest snapshot the treasury is in (the
 * balance files and the importer's snapshots), plus its crypto transfers after that snapshot up to the block's end.
 * An account deleted by then keeps the balance it had when it was deleted.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';

/** Which account: by encoded id, or by alias (the serialized key). */
export type BalanceAccount = { readonly id: bigint } | { readonly alias: Uint8Array };

export interface RosettaBalanceRow extends Record<string, unknown> {
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

/** The entity at `end`: by id an account or contract, by alias any entity holding it then (the latest first). */
function entityAt(account: BalanceAccount, end: bigint): SQL {
  const condition =
    'id' in account ? sql`type in ('ACCOUNT', 'CONTRACT') and id = ${account.id}` : sql`alias = ${account.alias}`;
  return sql`
    select ${ENTITY_COLUMNS} from entity where ${condition} and timestamp_range @> ${end}::bigint
    union all
    select ${ENTITY_COLUMNS} from entity_history where ${condition} and timestamp_range @> ${end}::bigint
    order by timestamp_range desc
    limit 1`;
}

/**
 * The balance of `account` at `end` (a block's last nanosecond); `treasury` is the encoded id whose snapshots mark
 * the balance snapshots. One statement.
 */
export async function rosettaBalance(
  db: Database,
  account: BalanceAccount,
  end: bigint,
  treasury: bigint,
): Promise<RosettaBalanceRow> {
  const accountId = 'id' in account ? sql`${account.id}::bigint` : sql`target.id`;
  // A literal, so that a plan made for every value can still use the index that leaves 0.0.98 out.
  const indexed = !('id' in account) || account.id !== FEE_COLLECTOR;
  const notFeeCollector = indexed ? sql.raw(`and ct.entity_id <> ${FEE_COLLECTOR}`) : sql``;
  const rows = await db.rows<RosettaBalanceRow>(sql`
    with target as (${entityAt(account, end)}),
    bounds as (
      select ${accountId} as account_id,
             -- deleted by the block's end: the transfers up to the deletion, the snapshot from before it
             case when target.deleted and target.modified <= ${end} then target.modified else ${end}::bigint end
               as change_end,
             case when target.deleted and target.modified <= ${end} then target.modified - 1 else ${end}::bigint end
               as snapshot_end
        from (select 1) one left join target on true
    ),
    snapshot as (
      select ab.consensus_timestamp
        from account_balance ab, bounds
       where ab.account_id = ${treasury} and ab.consensus_timestamp <= bounds.snapshot_end
       order by ab.consensus_timestamp desc
       limit 1
    )
    select (select id from target) as entity_id, (select key from target) as key,
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
      from bounds left join snapshot on true`);
  const row = rows[0];
  if (!row) throw new Error('rosettaBalance: the statement returned no row');
  return row;
}
