/**
 * Everything one record file produces, collected in memory before the single database transaction that
 * writes it: plain inserts per table, ordered changes to tables with history, and balance deltas (summed per
 * account and per token account, applied after the changes).
 */
import type { Row } from '../sink/bulk-insert.ts';
import type { Change } from '../sink/history-upsert.ts';

export interface BalanceDelta {
  amount: bigint;
  timestamp: bigint;
}

export class FileRows {
  readonly inserts = new Map<string, Row[]>();
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
  /** Upserts that replace the whole row (contract, contract_state, schedule). */
  readonly replaces = new Map<string, Row[]>();

  insert(table: string, row: Row): void {
    let rows = this.inserts.get(table);
    if (!rows) {
      rows = [];
      this.inserts.set(table, rows);
    }
    rows.push(row);
  }

  rows(table: string): readonly Row[] {
    return this.inserts.get(table) ?? [];
  }

  /** A change to a history table; `history` false updates the current row in place. */
  change(table: string, row: Row, timestamp: bigint, history = true, overwrite?: readonly string[]): void {
    let list = this.changes.get(table);
    if (!list) {
      list = [];
      this.changes.set(table, list);
    }
    list.push(overwrite ? { row, timestamp, history, overwrite } : { row, timestamp, history });
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
