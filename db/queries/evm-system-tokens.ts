import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { monthStart, TREASURY_ACCOUNT } from './accounts.ts';

/**
 * Token state for Hedera's system contracts, at the EVM's block: the current tables when `at` is undefined (the
 * `latest` block), else as of the timestamp `at` (the block's `consensus_end`): each row's newest version, current
 * or historical, whose validity starts at or before `at`. Token balances at a past block are the latest balance
 * snapshot before it plus the transfers since. int8 come back as strings.
 */

/** How far back a balance snapshot is looked for: 31 days, as the reference's historical balance reads do. */
const SNAPSHOT_WINDOW_NS = 2_678_400_000_000_000n;

/** The first nanosecond of the UTC month of `ns`: a constant bound that lets the planner prune monthly partitions. */
function utcMonthStartNs(ns: bigint): bigint {
  const day = new Date(Number(ns / 1_000_000n));
  return BigInt(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1)) * 1_000_000n;
}

/** The one row of `table` matching `where` valid at `at` (now when undefined), from the table or its history. */
function versionAt(table: string, columns: string, where: SQL, at: bigint | undefined): SQL {
  const list = sql.raw(columns);
  if (at === undefined) return sql`select ${list} from ${sql.raw(table)} x where ${where}`;
  const valid = sql`${where} and lower(x.timestamp_range) <= ${at}`;
  return sql`select ${list}
               from ((select ${list}, x.timestamp_range from ${sql.raw(table)} x where ${valid})
                     union all
                     (select ${list}, x.timestamp_range from ${sql.raw(`${table}_history`)} x where ${valid}
                       order by lower(x.timestamp_range) desc limit 1)) x
              order by lower(x.timestamp_range) desc
              limit 1`;
}

export interface EvmTokenRow extends Record<string, unknown> {
  auto_renew_account_id: string | null;
  auto_renew_period: string | null;
  created_timestamp: string;
  decimals: string;
  deleted: boolean | null;
  expiration_timestamp: string | null;
  fee_schedule_key: Uint8Array | null;
  fixed_fees: Record<string, unknown>[] | null;
  fractional_fees: Record<string, unknown>[] | null;
  freeze_default: boolean;
  freeze_key: Uint8Array | null;
  key: Uint8Array | null;
  kyc_key: Uint8Array | null;
  kyc_status: number;
  max_supply: string;
  memo: string;
  metadata_key: Uint8Array | null;
  name: string;
  pause_key: Uint8Array | null;
  pause_status: string;
  royalty_fees: Record<string, unknown>[] | null;
  supply_key: Uint8Array | null;
  supply_type: string;
  symbol: string;
  total_supply: string;
  treasury_account_id: string;
  type: string;
  wipe_key: Uint8Array | null;
}

const TOKEN_COLUMNS = `x.created_timestamp, x.decimals, x.fee_schedule_key, x.freeze_default, x.freeze_key, x.kyc_key,
  x.kyc_status, x.max_supply, x.metadata_key, x.name, x.pause_key, x.pause_status, x.supply_key, x.supply_type, x.symbol,
  x.total_supply, x.treasury_account_id, x.type, x.wipe_key`;
const ENTITY_COLUMNS = 'x.auto_renew_account_id, x.auto_renew_period, x.deleted, x.expiration_timestamp, x.key, x.memo';
const FEE_COLUMNS = 'x.fixed_fees, x.fractional_fees, x.royalty_fees';

/** The token with its entity (admin key, memo, expiry) and its custom fees, each in its version at `at`. */
export async function evmTokenAt(
  db: Database,
  tokenId: bigint,
  at: bigint | undefined,
): Promise<EvmTokenRow | undefined> {
  const [row] = await db.rows<EvmTokenRow>(sql`
    select t.*, e.*, f.*
      from (${versionAt('token', TOKEN_COLUMNS, sql`x.token_id = ${tokenId}`, at)}) t
      join lateral (${versionAt('entity', ENTITY_COLUMNS, sql`x.id = ${tokenId}`, at)}) e on true
      left join lateral (${versionAt('custom_fee', FEE_COLUMNS, sql`x.entity_id = ${tokenId}`, at)}) f on true`);
  return row;
}

/** The treasury's latest balance snapshot at or before `at`, within the window; no row when there is none. */
function snapshotBefore(at: bigint): SQL {
  return sql`select consensus_timestamp as upper
               from account_balance
              where account_id = ${TREASURY_ACCOUNT}
                and consensus_timestamp > ${at - SNAPSHOT_WINDOW_NS} and consensus_timestamp <= ${at}
              order by consensus_timestamp desc
              limit 1`;
}

export interface TokenRelationshipRow extends Record<string, unknown> {
  associated: boolean;
  balance: string;
  freeze_status: number | null;
  kyc_status: number | null;
}

/** The account's relationship with the token; undefined when they were never associated by then. */
export async function tokenRelationshipAt(
  db: Database,
  accountId: bigint,
  tokenId: bigint,
  at: bigint | undefined,
): Promise<TokenRelationshipRow | undefined> {
  const where = sql`x.account_id = ${accountId} and x.token_id = ${tokenId}`;
  const columns = 'x.associated, x.balance, x.freeze_status, x.kyc_status';
  if (at === undefined) {
    const [row] = await db.rows<TokenRelationshipRow>(versionAt('token_account', columns, where, at));
    return row;
  }
  const partitions = utcMonthStartNs(at - SNAPSHOT_WINDOW_NS);
  const [row] = await db.rows<TokenRelationshipRow>(sql`
    with snapshot as (${snapshotBefore(at)}),
         bounds as (select upper, ${monthStart(sql`upper`)} as lower from snapshot)
    select r.associated, r.freeze_status, r.kyc_status,
           (coalesce((select tb.balance
                        from token_balance tb, bounds b
                       where tb.account_id = ${accountId} and tb.token_id = ${tokenId}
                         and tb.consensus_timestamp >= b.lower and tb.consensus_timestamp <= b.upper
                         and tb.consensus_timestamp >= ${partitions} and tb.consensus_timestamp <= ${at}
                       order by tb.consensus_timestamp desc
                       limit 1), 0)
            + coalesce((select sum(tt.amount)
                          from token_transfer tt
                         where tt.account_id = ${accountId} and tt.token_id = ${tokenId}
                           and tt.consensus_timestamp > coalesce((select upper from snapshot), 0)
                           and tt.consensus_timestamp <= ${at}), 0))::text as balance
      from (${versionAt('token_account', columns, where, at)}) r`);
  return row;
}

/**
 * A fungible token's total supply at `at`: the holders' balances in the latest snapshot before it plus every
 * transfer of the token since (mints and burns move the total, transfers between holders cancel out).
 */
export async function fungibleSupplyAt(db: Database, tokenId: bigint, at: bigint): Promise<bigint> {
  const partitions = utcMonthStartNs(at - SNAPSHOT_WINDOW_NS);
  const [row] = await db.rows<{ supply: string }>(sql`
    with snapshot as (${snapshotBefore(at)}),
         bounds as (select upper, ${monthStart(sql`upper`)} as lower from snapshot)
    select (coalesce((select sum(latest.balance)
                        from (select distinct on (tb.account_id) tb.balance
                                from token_balance tb, bounds b
                               where tb.token_id = ${tokenId}
                                 and tb.consensus_timestamp >= b.lower and tb.consensus_timestamp <= b.upper
                                 and tb.consensus_timestamp >= ${partitions} and tb.consensus_timestamp <= ${at}
                               order by tb.account_id, tb.consensus_timestamp desc) latest), 0)
          + coalesce((select sum(tt.amount)
                        from token_transfer tt
                       where tt.token_id = ${tokenId}
                         and tt.consensus_timestamp > coalesce((select upper from snapshot), 0)
                         and tt.consensus_timestamp <= ${at}), 0))::text as supply`);
  return BigInt(row?.supply ?? '0');
}

/**
 * The NFT versions valid at `at` that match `where`: a current row from its start on, a history row within its
 * range. Each serial has at most one version valid at any time, so counting them counts serials.
 */
function nftVersionsAt(where: SQL, at: bigint): SQL {
  return sql`select 1 from nft x
              where ${where} and lower(x.timestamp_range) <= ${at} and x.deleted is not true
             union all
             select 1 from nft_history x
              where ${where} and x.timestamp_range @> ${at}::bigint and x.deleted is not true`;
}

/** How many of the NFT's serials exist at `at`: minted by then and not burned or wiped by then. */
export async function nftSupplyAt(db: Database, tokenId: bigint, at: bigint): Promise<bigint> {
  const [row] = await db.rows<{ count: string }>(
    sql`select count(*)::text as count from (${nftVersionsAt(sql`x.token_id = ${tokenId}`, at)}) v`,
  );
  return BigInt(row?.count ?? '0');
}

export interface NftRow extends Record<string, unknown> {
  account_id: string | null;
  created_timestamp: string | null;
  deleted: boolean | null;
  metadata: Uint8Array | null;
  spender: string | null;
}

export async function nftAt(
  db: Database,
  tokenId: bigint,
  serial: bigint,
  at: bigint | undefined,
): Promise<NftRow | undefined> {
  const where = sql`x.token_id = ${tokenId} and x.serial_number = ${serial}`;
  const [row] = await db.rows<NftRow>(
    versionAt('nft', 'x.account_id, x.created_timestamp, x.deleted, x.metadata, x.spender', where, at),
  );
  return row;
}

/**
 * The remaining amount `spender` may transfer of the owner's fungible token; 0 without an allowance. Approved
 * transfers lower `amount` in place with no history row, so at a past block it is the amount granted by the version
 * valid then plus the approved debits (negative) the spender made from that grant up to `at`, as the reference's
 * web3 module reads it. The spender of a debit is who the ingest charged: the contract result's sender in a
 * contract's transfer, else the payer.
 */
export async function tokenAllowanceAt(
  db: Database,
  args: { owner: bigint; spender: bigint; tokenId: bigint },
  at: bigint | undefined,
): Promise<bigint> {
  const where = sql`x.owner = ${args.owner} and x.spender = ${args.spender} and x.token_id = ${args.tokenId}`;
  if (at === undefined) {
    const [row] = await db.rows<{ amount: string }>(versionAt('token_allowance', 'x.amount', where, at));
    return BigInt(row?.amount ?? '0');
  }
  const grant = versionAt('token_allowance', 'x.amount_granted, lower(x.timestamp_range) as granted_at', where, at);
  const [row] = await db.rows<{ amount: string }>(
    sql`select (g.amount_granted + coalesce((
              select sum(t.amount)
                from token_transfer t
                left join contract_result r on r.consensus_timestamp = t.consensus_timestamp
               where t.account_id = ${args.owner} and t.token_id = ${args.tokenId} and t.is_approval
                 and t.amount < 0 and coalesce(r.sender_id, t.payer_account_id) = ${args.spender}
                 and t.consensus_timestamp > g.granted_at and t.consensus_timestamp <= ${at}), 0))::text
              as amount
          from (${grant}) g`,
  );
  return BigInt(row?.amount ?? '0');
}

/** Whether `spender` may transfer every NFT of the token the owner holds. */
export async function nftApprovedForAllAt(
  db: Database,
  args: { owner: bigint; spender: bigint; tokenId: bigint },
  at: bigint | undefined,
): Promise<boolean> {
  const where = sql`x.owner = ${args.owner} and x.spender = ${args.spender} and x.token_id = ${args.tokenId}`;
  const [row] = await db.rows<{ approved_for_all: boolean }>(
    versionAt('nft_allowance', 'x.approved_for_all', where, at),
  );
  return row?.approved_for_all ?? false;
}

/** The remaining tinybars `spender` may transfer from the owner's account; 0 without an allowance. */
export async function cryptoAllowanceAt(
  db: Database,
  args: { owner: bigint; spender: bigint },
  at: bigint | undefined,
): Promise<bigint> {
  const where = sql`x.owner = ${args.owner} and x.spender = ${args.spender}`;
  const [row] = await db.rows<{ amount: string }>(versionAt('crypto_allowance', 'x.amount', where, at));
  return BigInt(row?.amount ?? '0');
}

/** How many of the NFT's serials the account owns at `at` (its balance of a non-fungible token). */
export async function nftBalanceAt(db: Database, accountId: bigint, tokenId: bigint, at: bigint): Promise<bigint> {
  const where = sql`x.account_id = ${accountId} and x.token_id = ${tokenId}`;
  const [row] = await db.rows<{ count: string }>(
    sql`select count(*)::text as count from (${nftVersionsAt(where, at)}) v`,
  );
  return BigInt(row?.count ?? '0');
}

/** The highest serial the NFT has minted by `at` (now when undefined), burned ones included; 0 before any mint. */
export async function nftLastSerialAt(db: Database, tokenId: bigint, at: bigint | undefined): Promise<bigint> {
  const minted = at === undefined ? sql`` : sql` and created_timestamp <= ${at}`;
  const [row] = await db.rows<{ serial: string }>(
    sql`select coalesce(max(serial_number), 0)::text as serial from nft where token_id = ${tokenId}${minted}`,
  );
  return BigInt(row?.serial ?? '0');
}

/** How many tokens the account is associated with automatically at `at` (now when undefined): its used slots. */
export async function autoAssociationsAt(db: Database, accountId: bigint, at: bigint | undefined): Promise<number> {
  const where = sql`x.account_id = ${accountId} and x.associated and x.automatic_association`;
  const versions =
    at === undefined
      ? sql`select 1 from token_account x where ${where}`
      : sql`select 1 from token_account x where ${where} and lower(x.timestamp_range) <= ${at}
             union all
             select 1 from token_account_history x where ${where} and x.timestamp_range @> ${at}::bigint`;
  const [row] = await db.rows<{ count: number }>(sql`select count(*)::int as count from (${versions}) v`);
  return row?.count ?? 0;
}

/** A pending airdrop: who sends which token (and serial, 0 for a fungible token) to whom. */
export interface AirdropKey {
  sender: bigint;
  receiver: bigint;
  tokenId: bigint;
  serial: bigint;
}

/** The pending airdrop's amount at `at` (now when undefined; 0 for an NFT); undefined when none is pending. */
export async function pendingAirdropAt(
  db: Database,
  key: AirdropKey,
  at: bigint | undefined,
): Promise<bigint | undefined> {
  const where = sql`x.sender_account_id = ${key.sender} and x.receiver_account_id = ${key.receiver}
    and x.token_id = ${key.tokenId} and x.serial_number = ${key.serial}`;
  const [row] = await db.rows<{ amount: string | null; state: string }>(
    versionAt('token_airdrop', 'x.amount, x.state', where, at),
  );
  return row?.state === 'PENDING' ? BigInt(row.amount ?? '0') : undefined;
}
