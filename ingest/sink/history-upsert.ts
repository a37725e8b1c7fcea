/**
 * Upserts into tables that keep history (`entity`, `token`, `topic`, …): a change at time T with history
 * copies the current row into `<table>_history` with its range closed at T and replaces it with range [T,),
 * keeping every column the change leaves null (partial updates). A change without history updates the
 * current row in place. Changes are applied in rounds so that two changes to one key within a file apply in
 * order (each round holds at most one change per key), each round being one statement per kind.
 */
import type pg from 'pg';
import { columnArrays, type Row } from './bulk-insert.ts';
import type { TableSchema } from './schema.ts';

export interface Change {
  readonly row: Row;
  /** Consensus time of the change: the new lower bound with history, the creation time for a new row. */
  readonly timestamp: bigint;
  readonly history: boolean;
  /** Columns set even to null (clearing a value); every other null keeps the current value. */
  readonly overwrite?: readonly string[];
}

export interface HistoryTable {
  readonly name: string;
  readonly key: readonly string[];
  /** Columns whose first value is kept (created_timestamp, evm_address, …). */
  readonly immutable: readonly string[];
}

export const HISTORY_TABLES: Readonly<Record<string, HistoryTable>> = {
  entity: { name: 'entity', key: ['id'], immutable: ['created_timestamp', 'evm_address', 'shard', 'realm', 'num'] },
  token: { name: 'token', key: ['token_id'], immutable: ['created_timestamp'] },
  token_account: { name: 'token_account', key: ['account_id', 'token_id'], immutable: [] },
  topic: { name: 'topic', key: ['id'], immutable: ['created_timestamp'] },
  nft: { name: 'nft', key: ['token_id', 'serial_number'], immutable: ['created_timestamp'] },
  crypto_allowance: { name: 'crypto_allowance', key: ['owner', 'spender'], immutable: [] },
  token_allowance: { name: 'token_allowance', key: ['owner', 'spender', 'token_id'], immutable: [] },
  nft_allowance: { name: 'nft_allowance', key: ['owner', 'spender', 'token_id'], immutable: [] },
  custom_fee: { name: 'custom_fee', key: ['entity_id'], immutable: [] },
  token_airdrop: {
    name: 'token_airdrop',
    key: ['sender_account_id', 'receiver_account_id', 'token_id', 'serial_number'],
    immutable: [],
  },
  node: { name: 'node', key: ['node_id'], immutable: ['created_timestamp'] },
};

function keyOf(table: HistoryTable, row: Row): string {
  return table.key.map((k) => String(row[k])).join('/');
}

/** Splits changes into rounds with at most one change per key, preserving order per key. */
function rounds(table: HistoryTable, changes: readonly Change[]): Change[][] {
  const out: Change[][] = [];
  const seen = new Map<string, number>();
  for (const change of changes) {
    const key = keyOf(table, change.row);
    const round = seen.get(key) ?? 0;
    seen.set(key, round + 1);
    const list = out[round];
    if (list) list.push(change);
    else out[round] = [change];
  }
  return out;
}

export async function applyChanges(
  client: pg.ClientBase,
  schema: TableSchema,
  table: HistoryTable,
  changes: readonly Change[],
): Promise<void> {
  for (const round of rounds(table, changes)) {
    // One statement per kind of change: with or without history, and the same columns overwritten.
    const groups = new Map<string, Change[]>();
    for (const change of round) {
      const kind = `${change.history}|${(change.overwrite ?? []).join(',')}`;
      const group = groups.get(kind);
      if (group) group.push(change);
      else groups.set(kind, [change]);
    }
    for (const group of groups.values()) {
      const first = group[0] as Change;
      await upsert(client, schema, table, group, first.history, first.overwrite ?? []);
    }
  }
}

async function upsert(
  client: pg.ClientBase,
  schema: TableSchema,
  table: HistoryTable,
  changes: readonly Change[],
  history: boolean,
  overwrite: readonly string[],
): Promise<void> {
  const rows = changes.map((c) => c.row);
  const names = [...new Set(rows.flatMap((row) => Object.keys(row)))].filter((n) => n !== 'timestamp_range');
  for (const key of table.key) if (!names.includes(key)) throw new Error(`${table.name} change without ${key}`);
  const { columns, arrays } = columnArrays(schema, table.name, rows, names);
  arrays.push(changes.map((c) => c.timestamp.toString()));
  const t = `"${table.name}"`;
  const selectIncoming = columns.map((c, i) => `u.c${i}::${c.type} as "${c.name}"`).join(', ');
  const aliases = [...columns.map((_, i) => `c${i}`), 'ts'].join(', ');
  const params = arrays.map((_, i) => `$${i + 1}::text[]`).join(', ');
  const join = table.key.map((k) => `t."${k}" = i."${k}"`).join(' and ');
  const allColumns = schema.columns(table.name).map((c) => `"${c.name}"`);
  const historyColumns = allColumns.filter((c) => c !== '"timestamp_range"');
  const moved = history
    ? `, moved as (
         insert into "${table.name}_history" (${historyColumns.join(', ')}, timestamp_range)
         select ${historyColumns.map((c) => `t.${c}`).join(', ')}, int8range(lower(t.timestamp_range), i.ts)
           from ${t} t join i on ${join}
          where lower(t.timestamp_range) < i.ts)`
    : '';
  const updates = columns
    .filter((c) => !table.key.includes(c.name))
    .map((c) =>
      overwrite.includes(c.name)
        ? `"${c.name}" = excluded."${c.name}"`
        : table.immutable.includes(c.name)
          ? `"${c.name}" = coalesce(${t}."${c.name}", excluded."${c.name}")`
          : `"${c.name}" = coalesce(excluded."${c.name}", ${t}."${c.name}")`,
    );
  if (history) updates.push('timestamp_range = excluded.timestamp_range');
  const conflict = table.key.map((k) => `"${k}"`).join(', ');
  const sql = `with i as (select ${selectIncoming}, u.ts::bigint as ts from unnest(${params}) as u(${aliases}))${moved}
    insert into ${t} (${columns.map((c) => `"${c.name}"`).join(', ')}, timestamp_range)
    select ${columns.map((c) => `i."${c.name}"`).join(', ')}, int8range(i.ts, null) from i
    on conflict (${conflict}) ${updates.length > 0 ? `do update set ${updates.join(', ')}` : 'do nothing'}`;
  await client.query(sql, arrays);
}
