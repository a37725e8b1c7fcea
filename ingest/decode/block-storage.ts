/**
 * Contract storage of block transactions, as the reference rebuilds its CONTRACT_STATE_CHANGE sidecar.
 *
 * A transaction's storage context is the state changes of its top-level ancestor: a parent's state changes hold
 * the committed (net) effect of its whole unit, children and inner batch transactions carry none of their own
 * that count. From them: per contract, the non-identical slot writes in stream order (the implicit "written
 * keys" a slot usage indexes into) and each slot's committed value (leading zeros trimmed, empty when deleted).
 *
 * What one transaction wrote to a slot is not always the committed value: when a later inner transaction of the
 * same atomic batch, or a later sibling under the same parent, read the slot, the value it read is what this one
 * left there. Transactions are therefore visited in reverse block order, each recording the values it read.
 */
import { blockTypes } from '../../proto/block.ts';
import type { BlockTransaction, Plain } from './block-reader.ts';
import { toHex } from './hash.ts';
import { timestampNanos } from './ids.ts';
import type { PbStorageChange } from './sidecar-file.ts';
import type { PbEntityId } from './types.ts';

const STORAGE = 4;
const BYTECODE = 5;
/** The hook system contract: its storage is a hook's (keyed by the executed hook), which blocks here lack. */
const HOOK_SYSTEM_CONTRACT = 365n;

export const contractKey = (id: Plain | undefined) =>
  `${id?.shardNum ?? 0n}.${id?.realmNum ?? 0n}.${id?.contractNum ?? 0n}`;

/** Leading zero bytes removed, as a plain Uint8Array (the decoder hands out Buffers). */
export function trimmed(bytes: Uint8Array | undefined): Uint8Array {
  if (!bytes) return new Uint8Array();
  let start = 0;
  while (start < bytes.length && bytes[start] === 0) start++;
  return new Uint8Array(bytes.subarray(start));
}

const slotKey = (contract: string, slot: Uint8Array) => `${contract}/${toHex(trimmed(slot))}`;

function decodedBytes(type: import('protobufjs').Type, bytes: Uint8Array | undefined, field: string) {
  if (!bytes) return undefined;
  try {
    const value = (type.decode(bytes) as unknown as Record<string, Uint8Array | undefined>)[field];
    return value ? new Uint8Array(value) : new Uint8Array();
  } catch {
    return undefined;
  }
}

/** What the state changes of one unit say about contracts. */
export class StorageContext {
  /** Committed value per slot key (`contract/slot`). */
  readonly values = new Map<string, Uint8Array>();
  /** Per contract: the non-identical writes in stream order. */
  readonly writes = new Map<string, { slot: Uint8Array; value: Uint8Array }[]>();
  /** Runtime bytecode stored per contract. */
  readonly bytecode = new Map<string, Uint8Array>();

  constructor(changes: readonly Plain[]) {
    const types = blockTypes();
    for (const change of changes) {
      const stateId = Number(change.state_id ?? 0);
      const update = change.map_update as Plain | undefined;
      const key = (update ?? (change.map_delete as Plain | undefined))?.key as Plain | undefined;
      if (stateId === BYTECODE && update && key?.contract_id_key) {
        const code = decodedBytes(types.BytecodeValue, update.value?.bytecode_value, 'code');
        if (code) this.bytecode.set(contractKey(key.contract_id_key), code);
        continue;
      }
      const slot = key?.slot_key_key as Plain | undefined;
      if (!slot || (update && (stateId !== STORAGE || update.identical))) continue;
      const value = update
        ? trimmed(decodedBytes(types.SlotValueValue, update.value?.slot_value_value, 'value'))
        : new Uint8Array();
      const contract = contractKey(slot.contractID);
      const slotBytes = trimmed(slot.key as Uint8Array | undefined);
      this.values.set(slotKey(contract, slotBytes), value);
      const list = this.writes.get(contract) ?? [];
      list.push({ slot: slotBytes, value });
      this.writes.set(contract, list);
    }
  }
}

/** How the transactions of a block relate, for storage: contexts and the chains later reads come from. */
export class StorageLinks {
  private readonly contexts: StorageContext[];
  /** The next inner transaction of the same atomic batch. */
  private readonly nextInBatch: (number | undefined)[];
  /** The next child of the same parent, when no other transaction came between them. */
  private readonly nextSibling: (number | undefined)[];
  /** Slot key → value read, per transaction, filled as transactions are visited in reverse. */
  private readonly reads: (Map<string, Uint8Array> | undefined)[];

  constructor(transactions: readonly BlockTransaction[], isBatch: (index: number) => boolean) {
    const n = transactions.length;
    this.nextInBatch = new Array(n).fill(undefined);
    this.nextSibling = new Array(n).fill(undefined);
    this.reads = new Array(n).fill(undefined);
    const byTimestamp = new Map<bigint, number>();
    const root: number[] = new Array(n);
    const own = new Map<number, StorageContext>();
    let lastInner: number | undefined;
    let lastChild: number | undefined;
    const parentOf = (i: number) => parentTimestamp(transactions[i] as BlockTransaction);
    for (let i = 0; i < n; i++) {
      const tx = transactions[i] as BlockTransaction;
      const parent = parentOf(i);
      const parentIndex = parent === undefined ? undefined : byTimestamp.get(parent);
      root[i] = parentIndex === undefined ? i : (root[parentIndex] as number);
      byTimestamp.set(tx.consensusTimestamp, i);
      if (tx.innerOfBatch) {
        if (lastInner !== undefined) this.nextInBatch[lastInner] = i;
        lastInner = i;
      }
      if (lastChild !== undefined && parent !== undefined && parent === parentOf(lastChild)) {
        this.nextSibling[lastChild] = i;
      }
      lastChild = parent !== undefined ? i : undefined;
      if (isBatch(i)) lastInner = undefined;
    }
    this.contexts = root.map((r) => {
      let context = own.get(r);
      if (!context) {
        context = new StorageContext((transactions[r] as BlockTransaction).stateChanges);
        own.set(r, context);
      }
      return context;
    });
  }

  context(index: number): StorageContext {
    return this.contexts[index] as StorageContext;
  }

  /** The value transaction `index` left in a slot: what a later batch transaction or sibling read, else committed. */
  valueWritten(index: number, key: string): Uint8Array | undefined {
    for (const chain of [this.nextInBatch, this.nextSibling]) {
      for (let next = chain[index]; next !== undefined; next = chain[next]) {
        const read = this.reads[next]?.get(key);
        if (read) return read;
      }
    }
    return this.context(index).values.get(key);
  }

  /**
   * The storage changes of the EVM transaction `index` from its slot usages: each read of a written slot (by
   * its index among the written keys) with the value written, each read-only slot with the value read. Records
   * the values read for earlier transactions. Slots whose written key or value cannot be resolved are left out.
   */
  storageChanges(index: number, usages: readonly Plain[]) {
    const reads = new Map<string, Uint8Array>();
    const out: { contract_id: PbEntityId; storage_changes: PbStorageChange[] }[] = [];
    for (const usage of usages) {
      const contractId = (usage.contract_id ?? {}) as PbEntityId;
      if (BigInt(contractId.contractNum ?? 0n) === HOOK_SYSTEM_CONTRACT) continue;
      const contract = contractKey(contractId);
      const explicit = ((usage.written_slot_keys?.keys ?? []) as Uint8Array[]).map(trimmed);
      const changes: PbStorageChange[] = [];
      for (const read of (usage.slot_reads ?? []) as Plain[]) {
        const valueRead = trimmed(read.read_value);
        if (read.index !== undefined) {
          const at = Number(read.index);
          let slot: Uint8Array | undefined;
          let written: Uint8Array | undefined;
          if (explicit.length > 0) {
            slot = explicit[at];
            if (slot) written = this.valueWritten(index, slotKey(contract, slot));
          } else {
            const write = this.context(index).writes.get(contract)?.[at];
            slot = write?.slot;
            written = write?.value;
          }
          if (!slot) continue;
          if (written) changes.push({ slot, value_read: valueRead, value_written: { value: written } });
          reads.set(slotKey(contract, slot), valueRead);
        } else if (read.key !== undefined) {
          const slot = new Uint8Array(read.key as Uint8Array);
          changes.push({ slot, value_read: valueRead });
          reads.set(slotKey(contract, slot), valueRead);
        }
      }
      if (changes.length > 0) out.push({ contract_id: contractId, storage_changes: changes });
    }
    this.reads[index] = reads;
    return out;
  }
}

/** The consensus time of a transaction's parent; undefined for a top-level transaction. */
export function parentTimestamp(tx: BlockTransaction): bigint | undefined {
  const parent = tx.result.parent_consensus_timestamp as Plain | undefined;
  return parent ? timestampNanos(parent) : undefined;
}
