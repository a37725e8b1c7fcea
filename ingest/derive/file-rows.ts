/**
 * Everything one record file produces, collected in memory before the single database transaction that
 * writes it: plain inserts per table, ordered changes to tables with history, and balance deltas (summed per
 * account and per token account, applied after the changes).
 */

import type { Row } from '../sink/bulk-insert.ts';
import type { ColumnKind } from '../sink/copy-binary.ts';
import { CopyTables } from '../sink/copy-text.ts';
import { type Change, HISTORY_TABLES } from '../sink/history-upsert.ts';
import type { CallDataFromFile } from './call-data-file.ts';
import { implied } from './implied-columns.ts';
import { javaHashMapOrder } from './java-hash-map-order.ts';
import type { SyntheticTransfer } from './synthetic-logs.ts';

/** Tables whose rows are read again after derivation (address books, stakes, the cursor): kept as objects. */
const KEPT_AS_ROWS: ReadonlySet<string> = new Set(['record_file', 'file_data', 'node_stake', 'address_book']);

/** Text columns whose NUL characters the importer's setters replace by U+FFFD (DomainUtils.sanitize). */
const SANITIZED: Readonly<Record<string, readonly string[]>> = { entity: ['memo'], token: ['name', 'symbol'] };

function sanitized(table: string, row: Row): Row {
  const columns = SANITIZED[table]?.filter((c) => typeof row[c] === 'string' && (row[c] as string).includes('\0'));
  if (!columns?.length) return row;
  const out = { ...row };
  for (const column of columns) out[column] = (row[column] as string).replaceAll('\0', '\uFFFD');
  return out;
}

/**
 * The one token transfer of a TokenDissociate from a deleted token: the account's whole balance leaving. Written at
 * the end (ingest/sink/dissociate.ts), as it depends on whether the account holds NFTs of the token.
 */
export interface DissociateTransfer {
  consensusTimestamp: bigint;
  tokenId: bigint;
  accountId: bigint;
  amount: bigint;
  payerAccountId: bigint;
}

/** An NFT collection's treasury change (the serial −1 transfer of a TokenUpdate), applied by ingest/sink/file-statements.ts. */
export interface TreasuryChange {
  consensusTimestamp: bigint;
  tokenId: bigint;
  previous: bigint;
  treasury: bigint;
}

/** The current value of a hook's storage slot, merged across the file (SqlEntityListener.mergeHookStorage). */
export interface HookStorageWrite {
  /** The first write's time; negative when a deleted slot is written again (the upsert restarts its life there). */
  created: bigint;
  readonly hookId: bigint;
  readonly ownerId: bigint;
  readonly key: Uint8Array;
  modified: bigint;
  value: Uint8Array;
  deleted: boolean;
}

export interface BalanceDelta {
  amount: bigint;
  timestamp: bigint;
}

export class FileRows {
  readonly inserts = new Map<string, Row[]>();
  /** Plain inserts already turned into COPY text (all tables but KEPT_AS_ROWS), when built for writing. */
  readonly copies: CopyTables | undefined;
  readonly changes = new Map<string, Change[]>();
  readonly entityBalances = new Map<bigint, BalanceDelta>();
  readonly tokenBalances = new Map<string, BalanceDelta & { accountId: bigint; tokenId: bigint }>();
  /** Address book versions to close (file id → end timestamp) before new ones start. */
  readonly closedAddressBooks = new Map<bigint, bigint>();
  /** Allowance spent by approved transfers (negative), keyed `owner/spender[/token]`, applied in place. */
  readonly allowanceSpends = new Map<
    string,
    { owner: bigint; spender: bigint; tokenId: bigint | undefined; amount: bigint }
  >();
  /** Entities each contract transaction involves (payer, sender, contracts), by consensus timestamp. */
  readonly contractTransactions = new Map<bigint, { payer: bigint; ids: Set<bigint> }>();
  readonly dissociateTransfers: DissociateTransfer[] = [];
  readonly treasuryChanges: TreasuryChange[] = [];
  /** Hook storage slots written in this file, by owner, hook and slot (ingest/sink/file-statements.ts). */
  readonly hookStorage = new Map<string, HookStorageWrite>();
  /** Contracts a migration bytecode sidecar names: entity and entity_history rows of theirs become CONTRACT. */
  readonly migratedContracts: bigint[] = [];
  /** Ethereum transactions whose hash the writer computes from their call data file (ingest/sink/call-data-hash.ts). */
  readonly callDataFromFiles: CallDataFromFile[] = [];
  /** Upserts that replace the whole row (contract, contract_state, schedule). */
  readonly replaces = new Map<string, Row[]>();
  /** Synthetic transfer logs whose topics and bloom take the EVM addresses of the entities (sink/synthetic-log-addresses.ts). */
  readonly syntheticTransfers: SyntheticTransfer[] = [];
  /** The file's contract log counter: EVM and synthetic logs share it, from 0 (the importer's RecordFileParser). */
  private logIndex = 0;

  nextLogIndex(): number {
    return this.logIndex++;
  }

  /**
   * `columnKinds` (each `table.column`'s kind, schema.ts) makes plain inserts COPY data as they come; without
   * it every row stays an object (`rows(table)`), as tests read them.
   */
  constructor(columnKinds?: ReadonlyMap<string, ColumnKind>) {
    this.copies = columnKinds ? new CopyTables(columnKinds) : undefined;
  }

  /** FileRows that crossed a thread (structured clone keeps the data, not the classes). */
  static revive(data: FileRows): FileRows {
    const rows = Object.setPrototypeOf(data, FileRows.prototype) as FileRows;
    if (rows.copies) CopyTables.revive(rows.copies);
    return rows;
  }

  /** Adds a plain insert; once added, a row of a COPY text table must not change (it is already text). */
  insert(table: string, row: Row): void {
    if (this.copies && !KEPT_AS_ROWS.has(table)) {
      this.copies.add(table, row);
      return;
    }
    let rows = this.inserts.get(table);
    if (!rows) {
      rows = [];
      this.inserts.set(table, rows);
    }
    rows.push(row);
  }

  rows(table: string): readonly Row[] {
    if (this.copies?.tables.has(table)) throw new Error(`the rows of ${table} were written as COPY text`);
    return this.inserts.get(table) ?? [];
  }

  /** The latest stake_period_start an entity change of this file set, by entity id. */
  readonly stakePeriodStarts = new Map<bigint, bigint>();

  /** A change to a history table; `history` false updates the current row in place. */
  change(table: string, row: Row, timestamp: bigint, history = true, overwrite?: readonly string[]): Change {
    const { row: clean, columns: forced } = implied(table, sanitized(table, row));
    if (table === 'entity' && typeof clean.stake_period_start === 'bigint') {
      this.stakePeriodStarts.set(clean.id as bigint, clean.stake_period_start);
    }
    // An entity's public key follows its key (AbstractEntity.setKey): a new key that does not reduce to one
    // primitive key clears it.
    const columns = [...(overwrite ?? []), ...forced];
    return this.push(
      table,
      columns.length > 0 ? { row: clean, timestamp, history, overwrite: columns } : { row: clean, timestamp, history },
    );
  }

  /** A change with history that does not apply when the current row's boolean column `unless` is true. */
  changeUnless(table: string, row: Row, timestamp: bigint, unless: string): Change {
    return this.push(table, { row: sanitized(table, row), timestamp, history: true, unless });
  }

  private push(table: string, change: Change): Change {
    let list = this.changes.get(table);
    if (!list) {
      list = [];
      this.changes.set(table, list);
    }
    list.push(change);
    return change;
  }

  /**
   * Folds each key's in-place changes (history false) that come before its first change with history into that
   * change, their values winning, as the importer's context merges them (SqlEntityListener.mergeEntity, mergeToken):
   * a nonce or supply reported before the row's creation or update in the same file makes no history row of its own.
   */
  foldInPlaceChanges(): void {
    for (const [table, changes] of this.changes) {
      const key = HISTORY_TABLES[table]?.key;
      if (!key || changes.every((c) => c.history)) continue;
      const pending = new Map<string, Change[]>();
      const settled = new Set<string>();
      const folded = new Set<Change>();
      const merged = new Map<Change, Change>();
      for (const change of changes) {
        const id = key.map((k) => String(change.row[k])).join('/');
        if (settled.has(id)) continue;
        if (!change.history) {
          pending.set(id, [...(pending.get(id) ?? []), change]);
          continue;
        }
        settled.add(id);
        const before = pending.get(id);
        if (!before) continue;
        const row = { ...change.row };
        for (const inPlace of before) {
          for (const [column, value] of Object.entries(inPlace.row))
            if (value !== null && value !== undefined) row[column] = value;
          folded.add(inPlace);
        }
        merged.set(change, { ...change, row });
      }
      if (folded.size > 0) {
        this.changes.set(
          table,
          changes.filter((c) => !folded.has(c)).map((c) => merged.get(c) ?? c),
        );
      }
    }
  }

  hookStorageWrite(write: { hookId: bigint; ownerId: bigint; key: Uint8Array; value: Uint8Array; ts: bigint }): void {
    const id = `${write.ownerId}/${write.hookId}/${Buffer.from(write.key).toString('hex')}`;
    const deleted = write.value.length === 0;
    const previous = this.hookStorage.get(id);
    if (!previous) {
      const { hookId, ownerId, key, value, ts } = write;
      this.hookStorage.set(id, { created: ts, hookId, ownerId, key, modified: ts, value, deleted });
      return;
    }
    if (previous.deleted && !deleted) previous.created = -write.ts;
    previous.value = write.value;
    previous.deleted = deleted;
    previous.modified = write.ts;
  }

  spendAllowance(owner: bigint, spender: bigint, tokenId: bigint | undefined, amount: bigint): void {
    const key = `${owner}/${spender}/${tokenId ?? ''}`;
    const current = this.allowanceSpends.get(key);
    if (current) current.amount += amount;
    else this.allowanceSpends.set(key, { owner, spender, tokenId, amount });
  }

  /** Records that `ids` take part in the contract transaction at `timestamp` (ignored when there is none). */
  involve(timestamp: bigint, ids: Iterable<bigint>, payer?: bigint): void {
    let entry = this.contractTransactions.get(timestamp);
    if (!entry) {
      if (payer === undefined) return;
      entry = { payer, ids: new Set() };
      this.contractTransactions.set(timestamp, entry);
    }
    for (const id of ids) entry.ids.add(id);
  }

  /**
   * One `contract_transaction` row per involved entity (0 for a contract a failed create never made), each listing
   * all of them in the order the importer's HashMap of them iterates.
   */
  emitContractTransactions(): void {
    for (const [timestamp, { payer, ids }] of this.contractTransactions) {
      const all = javaHashMapOrder([...ids]);
      for (const id of all) {
        this.insert('contract_transaction', {
          consensus_timestamp: timestamp,
          entity_id: id,
          contract_ids: all,
          payer_account_id: payer,
        });
      }
    }
  }

  closeAddressBook(fileId: bigint, end: bigint): void {
    if (!this.closedAddressBooks.has(fileId)) this.closedAddressBooks.set(fileId, end);
  }

  replace(table: string, row: Row): void {
    let rows = this.replaces.get(table);
    if (!rows) {
      rows = [];
      this.replaces.set(table, rows);
    }
    rows.push(row);
  }

  addEntityBalance(id: bigint, amount: bigint, timestamp: bigint): void {
    if (id === 0n) return;
    const current = this.entityBalances.get(id);
    if (current) {
      current.amount += amount;
      current.timestamp = timestamp;
    } else {
      this.entityBalances.set(id, { amount, timestamp });
    }
  }

  addTokenBalance(accountId: bigint, tokenId: bigint, amount: bigint, timestamp: bigint): void {
    if (accountId === 0n || tokenId === 0n) return;
    const key = `${accountId}/${tokenId}`;
    const current = this.tokenBalances.get(key);
    if (current) {
      current.amount += amount;
      current.timestamp = timestamp;
    } else {
      this.tokenBalances.set(key, { accountId, tokenId, amount, timestamp });
    }
  }
}
