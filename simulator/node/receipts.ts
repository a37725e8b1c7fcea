/**
 * What a node remembers of the transactions it accepted, as the consensus node's receipt cache and deduplication
 * cache do: an accepted transaction's id is known (receipt `UNKNOWN`) until consensus, then its record is kept for
 * three minutes (the receipt TTL); an id is a duplicate while its valid window lasts. Both are one map each,
 * pruned as time moves on.
 */
import type { SimItem } from '../network/network.ts';
import { numOf } from './entity-ids.ts';

const RECEIPT_TTL_NS = 180_000_000_000n;

interface Pending {
  readonly state: 'pending';
}

interface Done {
  readonly state: 'done';
  readonly item: SimItem;
  /** The records the transaction caused besides its own (accounts a transfer created), in consensus order. */
  readonly children: readonly SimItem[];
  readonly expiresNs: bigint;
}

export class ReceiptCache {
  private readonly entries = new Map<string, Pending | Done>();
  /** Receipt queries waiting for a pending transaction's handling, by its key. */
  private readonly waiters = new Map<string, (() => void)[]>();
  /** Transaction id key → end of its valid window (ns). */
  private readonly seen = new Map<string, bigint>();

  isDuplicate(key: string, nowNs: bigint): boolean {
    const end = this.seen.get(key);
    return end !== undefined && end >= nowNs;
  }

  accept(key: string, validEndNs: bigint): void {
    this.seen.set(key, validEndNs);
    this.entries.set(key, { state: 'pending' });
  }

  /** The accepted id goes away again (its handling could not start). */
  forget(key: string): void {
    this.seen.delete(key);
    this.entries.delete(key);
  }

  done(key: string, item: SimItem, children: readonly SimItem[] = []): void {
    this.entries.set(key, { state: 'done', item, children, expiresNs: item.consensusNs + RECEIPT_TTL_NS });
    for (const wake of this.waiters.get(key) ?? []) wake();
    this.waiters.delete(key);
  }

  /**
   * Resolves once a pending transaction is handled, or after `ms`: a receipt query for a transaction a few
   * milliseconds from consensus gets its receipt instead of UNKNOWN and the client's back-off.
   */
  settled(key: string, ms: number): Promise<void> {
    if (this.entries.get(key)?.state !== 'pending') return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      const list = this.waiters.get(key) ?? [];
      list.push(() => {
        clearTimeout(timer);
        resolve();
      });
      this.waiters.set(key, list);
    });
  }

  /** Undefined: the node never saw this id (or forgot it); 'pending': not handled yet. */
  lookup(key: string): SimItem | 'pending' | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    return entry.state === 'pending' ? 'pending' : entry.item;
  }

  /** The child records of a handled transaction (none while pending or unknown). */
  children(key: string): readonly SimItem[] {
    const entry = this.entries.get(key);
    return entry?.state === 'done' ? entry.children : [];
  }

  /**
   * The records the cache holds whose transaction `account` paid for (children included), oldest first: what the
   * node answers a CryptoGetAccountRecords query with.
   */
  recordsPaidBy(account: bigint): SimItem[] {
    const out: SimItem[] = [];
    for (const entry of this.entries.values()) {
      if (entry.state !== 'done') continue;
      const id = (entry.item.record.transactionID ?? {}) as Record<string, unknown>;
      if (numOf(id.accountID, 'accountNum') === account) out.push(entry.item);
    }
    return out.sort((a, b) => (a.consensusNs < b.consensusNs ? -1 : a.consensusNs > b.consensusNs ? 1 : 0));
  }

  prune(nowNs: bigint): void {
    for (const [key, end] of this.seen) if (end < nowNs) this.seen.delete(key);
    for (const [key, entry] of this.entries) {
      if (entry.state === 'done' && entry.expiresNs < nowNs) this.entries.delete(key);
    }
  }
}
