import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { type Comparison, compare } from './comparison.ts';
import { limitOf } from './limit.ts';

/** An NFT; `deleted` is also true once its token is deleted. int8 columns are strings. */
export interface NftRow extends Record<string, unknown> {
  account_id: string | null;
  created_timestamp: string | null;
  delegating_spender: string | null;
  deleted: boolean | null;
  metadata: Uint8Array | null;
  serial_number: string;
  spender: string | null;
  modified_timestamp: string | null;
  token_id: string;
}

const NFT_SELECT = sql`select nft.account_id, nft.created_timestamp, nft.delegating_spender,
       nft.deleted or coalesce(e.deleted, false) as deleted, nft.metadata, nft.serial_number, nft.spender,
       lower(nft.timestamp_range) as modified_timestamp, nft.token_id
  from nft
  left join entity e on e.id = nft.token_id`;

export interface NftsQuery {
  tokenId: bigint;
  accountIds: readonly Comparison<bigint | null>[];
  serialNumbers: readonly Comparison<bigint>[];
  order: 'asc' | 'desc';
  limit: number;
}

/** A token's NFTs by serial number in `order`, at most `limit`, on the nft primary key: one statement. */
export function nfts(db: Database, query: NftsQuery): Promise<NftRow[]> {
  const conditions: SQL[] = [
    sql`nft.token_id = ${query.tokenId}`,
    ...query.serialNumbers.map((filter) => compare(sql`nft.serial_number`, filter)),
    ...query.accountIds.map((filter) => compare(sql`nft.account_id`, filter)),
  ];
  return db.rows<NftRow>(sql`
    ${NFT_SELECT}
     where ${sql.join(conditions, sql` and `)}
     order by nft.serial_number ${sql.raw(query.order)}
     limit ${limitOf(query.limit)}`);
}

export async function nft(db: Database, tokenId: bigint, serialNumber: bigint): Promise<NftRow | undefined> {
  const rows = await db.rows<NftRow>(sql`
    ${NFT_SELECT}
     where nft.token_id = ${tokenId} and nft.serial_number = ${serialNumber}`);
  return rows.length === 1 ? rows[0] : undefined;
}

/** A transaction that changed an NFT, with that NFT's transfers in it. */
export interface NftTransactionRow extends Record<string, unknown> {
  consensus_timestamp: string;
  nft_transfer: NftTransferJson[] | null;
  nonce: number;
  payer_account_id: string;
  type: number;
  valid_start_ns: string;
  /** Whether the NFT exists with a creation time (else the history is partial). */
  nft_created: boolean;
}

export interface NftTransferJson {
  is_approval?: boolean | null;
  receiver_account_id?: number | bigint | null;
  sender_account_id?: number | bigint | null;
}

/** TOKENDELETION: its transaction has no NFT transfer, yet it ends every NFT of the token. */
const TOKEN_DELETION_TYPE = 35;

/**
 * The transactions that changed one NFT (each version of it in `nft` and `nft_history` starts at one, and a token
 * deletion ends it), by consensus timestamp in `order`, at most `limit`: one statement.
 */
export function nftTransactions(
  db: Database,
  query: {
    tokenId: bigint;
    serialNumber: bigint;
    timestamps: readonly Comparison<bigint>[];
    order: 'asc' | 'desc';
    limit: number;
  },
): Promise<NftTransactionRow[]> {
  const { tokenId, serialNumber, limit } = query;
  const order = sql.raw(query.order);
  const since = (column: SQL) => query.timestamps.map((filter) => compare(column, filter));
  const nftWhere = sql.join(
    [sql`token_id = ${tokenId}`, sql`serial_number = ${serialNumber}`, ...since(sql`lower(timestamp_range)`)],
    sql` and `,
  );
  const deletionWhere = sql.join(
    [sql`id = ${tokenId}`, sql`deleted is true`, ...since(sql`lower(timestamp_range)`)],
    sql` and `,
  );
  return db.rows<NftTransactionRow>(sql`
    with event as (
      select timestamp
        from ((select lower(timestamp_range) as timestamp from nft where ${nftWhere})
              union all
              (select lower(timestamp_range) as timestamp from nft_history where ${nftWhere}
                order by timestamp ${order} limit ${limitOf(limit)})
              union all
              (select lower(timestamp_range) as timestamp from entity where ${deletionWhere})) e
       order by timestamp ${order}
       limit ${limitOf(limit)})
    select t.consensus_timestamp,
           case when t.type = ${TOKEN_DELETION_TYPE}
                then jsonb_build_array(jsonb_build_object('is_approval', false, 'receiver_account_id', null,
                                                          'sender_account_id', null))
                else jsonb_path_query_array(t.nft_transfer,
                       '$[*] ? (@.token_id == $token_id && @.serial_number == $serial_number)',
                       jsonb_build_object('token_id', ${tokenId}::bigint, 'serial_number', ${serialNumber}::bigint))
           end as nft_transfer,
           t.nonce, t.payer_account_id, t.type, t.valid_start_ns,
           exists (select 1 from nft where token_id = ${tokenId} and serial_number = ${serialNumber}
                                       and created_timestamp is not null) as nft_created
      from transaction t
     where t.consensus_timestamp in (select timestamp from event)
     order by t.consensus_timestamp ${order}`);
}
