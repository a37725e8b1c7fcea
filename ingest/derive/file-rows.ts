/**
 * Everything one record file produces, collected in memory before the single database transaction that
 * writes it: plain inserts per table, ordered changes to tables with history, and balance deltas (summed per
 * account and per token account, applied after the changes).
 */

import type { Row } from '../sink/bulk-insert.ts';
import type { ColumnKind } from '../sink/copy-binary.ts';
import { CopyTables } from '../sink/copy-text.ts';
import type { Change } from '../sink/history-upsert.ts';
import type { CallDataFromFile } from './call-data-file.ts';

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

/** An NFT collection's treasury change: the record's NFT transfer of serial -1 (ingest/sink/nft-treasury.ts). */
export interface NftTreasuryChange {
  consensusTimestamp: bigint;
  tokenId: bigint;
  previousTreasury: bigint;
  newTreasury: bigint;
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
  readonly nftTreasuryChanges: NftTreasuryChange[] = [];
  /** Ethereum transactions whose hash the writer computes from their call data file (ingest/sink/call-data-hash.ts). */
  readonly callDataFromFiles: CallDataFromFile[] = [];
  /** Upserts that replace the whole row (contract, contract_state, schedule). */
  readonly replaces = new Map<string, Row[]>();

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

  /** A change to a history table; `history` false updates the current row in place. */
  change(table: string, row: Row, timestamp: bigint, history = true, overwrite?: readonly string[]): Change {
    const clean = sanitized(table, row);
    return this.push(
      table,
      overwrite ? { row: clean, timestamp, history, overwrite } : { row: clean, timestamp, history },
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

  /** Entity changes for contracts a contract result lists as created, by contract id (see below). */
  private readonly createdByResults = new Map<bigint, Change[]>();

  /** The entity change of a contract another transaction's result says it created. */
  contractCreatedByResult(id: bigint, row: Row, timestamp: bigint): void {
    const change = this.change('entity', row, timestamp);
    const list = this.createdByResults.get(id);
    if (list) list.push(change);
    else this.createdByResults.set(id, [change]);
  }

  /** Drops those changes for contracts that a ContractCreate of the same file makes (it writes the entity). */
  dropContractsCreatedBy(contractCreates: ReadonlySet<bigint>): void {
    const dropped = new Set<Change>();
    for (const [id, list] of this.createdByResults) if (contractCreates.has(id)) for (const c of list) dropped.add(c);
    const entity = this.changes.get('entity');
    if (dropped.size > 0 && entity)
      this.changes.set(
        'entity',
        entity.filter((c) => !dropped.has(c)),
      );
    this.createdByResults.clear();
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
    for (const id of ids) if (id !== 0n) entry.ids.add(id);
  }

  /** One `contract_transaction` row per involved entity, each listing all of them. */
  emitContractTransactions(): void {
    for (const [timestamp, { payer, ids }] of this.contractTransactions) {
      const all = [...ids];
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
