/**
 * Upserts into tables that keep history (`entity`, `token`, `topic`, …): a change at time T with history
 * copies the current row into `<table>_history` with its range closed at T and replaces it with range [T,),
 * keeping every column the change leaves null (partial updates). A change without history updates the
 * current row in place, and only a row that exists. Changes are applied in rounds so that two changes to one key
 * within a file apply in order (each round holds at most one change per key), each round being one statement per
 * kind.
 */
import type { Row } from './bulk-insert.ts';
import type { TableSchema } from './schema.ts';
import type { Statement } from './statement.ts';
import { upsertStatement } from './upsert.ts';

export interface Change {
  readonly row: Row;
  /** Consensus time of the change: the new lower bound with history, the creation time for a new row. */
  readonly timestamp: bigint;
  readonly history: boolean;
  /** Columns set even to null (clearing a value); every other null keeps the current value. */
  readonly overwrite?: readonly string[];
  /** A boolean column: when the current row has it true, the change does not apply. */
  readonly unless?: string;
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
  hook: { name: 'hook', key: ['owner_id', 'hook_id'], immutable: [] },
  registered_node: { name: 'registered_node', key: ['registered_node_id'], immutable: ['created_timestamp'] },
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

/** The statements that apply `changes` to `table`, in the order they must run. */
export function changeStatements(schema: TableSchema, table: HistoryTable, changes: readonly Change[]): Statement[] {
  const statements: Statement[] = [];
  for (const round of rounds(table, changes)) {
    // One statement per kind of change: with or without history, the same columns named and overwritten.
    const groups = new Map<string, Change[]>();
    for (const change of round) {
      const kind = `${change.history}|${change.unless ?? ''}|${(change.overwrite ?? []).join(',')}|${Object.keys(change.row).sort().join(',')}`;
      const group = groups.get(kind);
      if (group) group.push(change);
      else groups.set(kind, [change]);
    }
    for (const group of groups.values()) {
      const first = group[0] as Change;
      statements.push(
        upsertStatement(
          schema,
          {
            table: table.name,
            key: table.key,
            keepExisting: table.immutable,
            overwrite: first.overwrite ?? [],
            range: { history: first.history },
            // An in-place change (a nonce, a supply) of a row the database does not hold is dropped, as the
            // importer's non-history upsert joins the existing row.
            updateOnly: !first.history,
            ...(first.unless ? { unless: first.unless } : {}),
          },
          group.map((c) => ({ row: c.row, timestamp: c.timestamp })),
        ),
      );
    }
  }
  return statements;
}
