/**
 * The statements a file's row objects become (changes to history tables, balances, allowance spends, whole-row
 * upserts), built without the database: the prepare worker builds them while the writing thread keeps Postgres
 * busy, and writer.ts runs them first in the file's transaction, in this order.
 */
import { int8ArrayText } from '../../db/queries/int8.ts';
import type { FileRows, TreasuryChange } from '../derive/file-rows.ts';
import type { Row } from './bulk-insert.ts';
import { type Change, changeStatements, HISTORY_TABLES, type HistoryTable } from './history-upsert.ts';
import type { TableSchema } from './schema.ts';
import { byteaText, textArray } from './sql-text.ts';
import type { Statement } from './statement.ts';
import { upsertStatement } from './upsert.ts';

/** Tables upserted whole: key columns, and columns whose first value is kept. */
const REPLACE_TABLES: Readonly<Record<string, { key: readonly string[]; keepFirst: readonly string[] }>> = {
  contract: { key: ['id'], keepFirst: [] },
  contract_state: { key: ['contract_id', 'slot'], keepFirst: ['created_timestamp'] },
  schedule: { key: ['schedule_id'], keepFirst: ['consensus_timestamp', 'creator_account_id'] },
  ledger: { key: ['ledger_id'], keepFirst: [] },
};

/** Order matters only for readability of failures; every table is in the same transaction. */
const CHANGE_ORDER = [
  'entity',
  'token',
  'token_account',
  'topic',
  'custom_fee',
  'nft',
  'crypto_allowance',
  'token_allowance',
  'nft_allowance',
  'token_airdrop',
  'node',
  'registered_node',
  'hook',
];

function mergeReplaces(table: string, rows: readonly Row[]): Row[] {
  const spec = REPLACE_TABLES[table];
  if (!spec) throw new Error(`no upsert rule for ${table}`);
  const merged = new Map<string, Record<string, unknown>>();
  for (const row of rows) {
    const key = spec.key
      .map((k) => {
        const v = row[k];
        return v instanceof Uint8Array ? byteaText(v) : String(v);
      })
      .join('/');
    const current = merged.get(key);
    if (!current) {
      merged.set(key, { ...row });
      continue;
    }
    for (const [column, value] of Object.entries(row)) {
      if (value === null || value === undefined) continue;
      if (spec.keepFirst.includes(column) && current[column] !== undefined && current[column] !== null) continue;
      current[column] = value;
    }
  }
  return [...merged.values()];
}

function replaceStatements(schema: TableSchema, table: string, rows: readonly Row[]): Statement[] {
  const spec = REPLACE_TABLES[table];
  if (!spec || rows.length === 0) return [];
  const merged = mergeReplaces(table, rows);
  // Rows of one table can name different columns (a bytecode sidecar vs a create); group by column set.
  const groups = new Map<string, Row[]>();
  for (const row of merged) {
    const signature = Object.keys(row).sort().join(',');
    const list = groups.get(signature);
    if (list) list.push(row);
    else groups.set(signature, [row]);
  }
  return [...groups.values()].map((group) =>
    upsertStatement(
      schema,
      { table, key: spec.key, keepExisting: spec.keepFirst, overwrite: [] },
      group.map((row) => ({ row })),
    ),
  );
}

// The int8[] parameters are literals built directly (int8ArrayText): the driver's generic array escaping is slow on
// 10^5 elements.
function balanceStatements(rows: FileRows): Statement[] {
  const statements: Statement[] = [];
  if (rows.entityBalances.size > 0) {
    const ids: bigint[] = [];
    const amounts: bigint[] = [];
    const timestamps: bigint[] = [];
    for (const [id, delta] of rows.entityBalances) {
      ids.push(id);
      amounts.push(delta.amount);
      timestamps.push(delta.timestamp);
    }
    // An account first seen in a transfer (genesis accounts, or data starting mid-chain) gets a row here.
    statements.push({
      text: `insert into entity (id, shard, realm, num, balance, balance_timestamp, timestamp_range, type, memo)
       select u.id, u.id >> 54, (u.id >> 38) & 65535, u.id & 274877906943, u.amount, u.ts, int8range(u.ts, null), 'ACCOUNT', ''
         from unnest($1::bigint[], $2::bigint[], $3::bigint[]) as u(id, amount, ts)
       on conflict (id) do update set balance = coalesce(entity.balance, 0) + excluded.balance,
                                      balance_timestamp = excluded.balance_timestamp`,
      values: [int8ArrayText(ids), int8ArrayText(amounts), int8ArrayText(timestamps)],
    });
  }
  if (rows.tokenBalances.size > 0) {
    const accounts: bigint[] = [];
    const tokens: bigint[] = [];
    const amounts: bigint[] = [];
    const timestamps: bigint[] = [];
    for (const delta of rows.tokenBalances.values()) {
      accounts.push(delta.accountId);
      tokens.push(delta.tokenId);
      amounts.push(delta.amount);
      timestamps.push(delta.timestamp);
    }
    // A relationship first seen in a transfer gets a row without statuses (readers take the token's), as the
    // importer's balance-only TokenAccount inserts it.
    statements.push({
      text: `insert into token_account (account_id, token_id, associated, balance, balance_timestamp, timestamp_range)
       select u.account, u.token, true, u.amount, u.ts, int8range(u.ts, null)
         from unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[]) as u(account, token, amount, ts)
       on conflict (account_id, token_id) do update set balance = token_account.balance + excluded.balance,
                                                        balance_timestamp = excluded.balance_timestamp`,
      values: [int8ArrayText(accounts), int8ArrayText(tokens), int8ArrayText(amounts), int8ArrayText(timestamps)],
    });
  }
  return statements;
}

/**
 * NftRepository.updateTreasury: every NFT the old treasury holds as of the change moves to the new treasury (the
 * rows they were go to history, spenders cleared); the old treasury's balance becomes 0 and the new one's grows by
 * the count.
 */
const UPDATE_TREASURY = `
  with nft_history as (
    insert into nft_history (account_id, created_timestamp, delegating_spender, deleted, metadata, serial_number,
                             spender, token_id, timestamp_range)
    select account_id, created_timestamp, delegating_spender, deleted, metadata, serial_number, spender, token_id,
           int8range(lower(timestamp_range), $1::bigint)
      from nft
     where token_id = $4 and account_id = $3 and lower(timestamp_range) < $1::bigint
  ), nft_updated as (
    update nft set account_id = $2, delegating_spender = null, spender = null,
                   timestamp_range = int8range($1::bigint, null)
     where token_id = $4 and account_id = $3 and lower(timestamp_range) < $1::bigint
    returning serial_number
  ), updated_count as (
    select count(*) as count from nft_updated
  )
  update token_account
     set balance = case when account_id = $3 then 0 else coalesce(balance, 0) + updated_count.count end,
         balance_timestamp = $1::bigint
    from updated_count
   where account_id in ($2, $3) and token_id = $4`;

function treasuryStatement(change: TreasuryChange): Statement {
  return {
    text: UPDATE_TREASURY,
    values: [change.consensusTimestamp, change.treasury, change.previous, change.tokenId].map(String),
  };
}

/**
 * The file's NFT changes with its treasury changes in time order, as the importer flushes the NFTs before each
 * treasury change: the changes up to a treasury change, the move, the changes after it. All come before the
 * balance deltas, so the old treasury's balance is 0 at the change and what it receives later still counts.
 */
function nftStatements(
  schema: TableSchema,
  spec: HistoryTable,
  changes: readonly Change[],
  treasuryChanges: readonly TreasuryChange[],
): Statement[] {
  const statements: Statement[] = [];
  let rest = changes;
  for (const treasury of treasuryChanges) {
    const at = treasury.consensusTimestamp;
    statements.push(
      ...changeStatements(
        schema,
        spec,
        rest.filter((c) => c.timestamp <= at),
      ),
    );
    statements.push(treasuryStatement(treasury));
    rest = rest.filter((c) => c.timestamp > at);
  }
  statements.push(...changeStatements(schema, spec, rest));
  return statements;
}

/**
 * The current value of each hook storage slot the file wrote (HookStorage's upsert): a slot that did not exist, was
 * deleted, or was written again after the file deleted it starts its life at the write; value, deletion and
 * modification time are the last write's.
 */
function hookStorageStatements(rows: FileRows): Statement[] {
  const writes = [...rows.hookStorage.values()];
  if (writes.length === 0) return [];
  return [
    {
      text: `with u as (
        select * from unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::text[]::bytea[],
                             $6::text[]::bytea[], $7::boolean[])
          as u(created, hook_id, modified, owner_id, key, value, deleted))
      insert into hook_storage (created_timestamp, hook_id, modified_timestamp, owner_id, key, value, deleted)
      select case when coalesce(e.deleted, true) or u.created < 0 then abs(u.created) else e.created_timestamp end,
             u.hook_id, u.modified, u.owner_id, u.key, u.value, u.deleted
        from u left join hook_storage e on e.owner_id = u.owner_id and e.hook_id = u.hook_id and e.key = u.key
      on conflict (owner_id, hook_id, key) do update
        set created_timestamp = excluded.created_timestamp, modified_timestamp = excluded.modified_timestamp,
            value = excluded.value, deleted = excluded.deleted`,
      values: [
        int8ArrayText(writes.map((w) => w.created)),
        int8ArrayText(writes.map((w) => w.hookId)),
        int8ArrayText(writes.map((w) => w.modified)),
        int8ArrayText(writes.map((w) => w.ownerId)),
        textArray(writes.map((w) => byteaText(w.key))),
        textArray(writes.map((w) => byteaText(w.value))),
        `{${writes.map((w) => (w.deleted ? 't' : 'f')).join(',')}}`,
      ],
    },
  ];
}

/** Entities a migration bytecode sidecar names are contracts, in history too (SidecarContractMigration). */
function migratedContractStatements(rows: FileRows): Statement[] {
  if (rows.migratedContracts.length === 0) return [];
  const ids = [int8ArrayText(rows.migratedContracts)];
  return ['entity', 'entity_history'].map((table) => ({
    text: `update ${table} set type = 'CONTRACT' where id = any($1::bigint[]) and type <> 'CONTRACT'`,
    values: ids,
  }));
}

/** Approved transfers lower the remaining allowance in place (no history, like the reference). */
function allowanceSpendStatements(rows: FileRows): Statement[] {
  const statements: Statement[] = [];
  const crypto = [...rows.allowanceSpends.values()].filter((s) => s.tokenId === undefined);
  const token = [...rows.allowanceSpends.values()].filter((s) => s.tokenId !== undefined);
  if (crypto.length > 0) {
    statements.push({
      text: `update crypto_allowance a set amount = a.amount + u.amount
         from unnest($1::bigint[], $2::bigint[], $3::bigint[]) as u(owner, spender, amount)
        where a.owner = u.owner and a.spender = u.spender`,
      values: [
        int8ArrayText(crypto.map((s) => s.owner)),
        int8ArrayText(crypto.map((s) => s.spender)),
        int8ArrayText(crypto.map((s) => s.amount)),
      ],
    });
  }
  if (token.length > 0) {
    statements.push({
      text: `update token_allowance a set amount = a.amount + u.amount
         from unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[]) as u(owner, spender, token, amount)
        where a.owner = u.owner and a.spender = u.spender and a.token_id = u.token`,
      values: [
        int8ArrayText(token.map((s) => s.owner)),
        int8ArrayText(token.map((s) => s.spender)),
        int8ArrayText(token.map((s) => s.tokenId ?? 0n)),
        int8ArrayText(token.map((s) => s.amount)),
      ],
    });
  }
  return statements;
}

export function fileStatements(schema: TableSchema, rows: FileRows): Statement[] {
  const statements: Statement[] = [];
  const changeTables = [...rows.changes.keys()].sort((a, b) => CHANGE_ORDER.indexOf(a) - CHANGE_ORDER.indexOf(b));
  for (const table of changeTables) {
    const spec = HISTORY_TABLES[table];
    if (!spec) throw new Error(`no history rule for ${table}`);
    const changes = rows.changes.get(table) ?? [];
    if (table === 'nft') statements.push(...nftStatements(schema, spec, changes, rows.treasuryChanges));
    else statements.push(...changeStatements(schema, spec, changes));
  }
  if (!rows.changes.has('nft')) statements.push(...rows.treasuryChanges.map(treasuryStatement));
  statements.push(
    ...balanceStatements(rows),
    ...allowanceSpendStatements(rows),
    ...migratedContractStatements(rows),
    ...hookStorageStatements(rows),
  );
  for (const [table, list] of rows.replaces) statements.push(...replaceStatements(schema, table, list));
  return statements;
}
