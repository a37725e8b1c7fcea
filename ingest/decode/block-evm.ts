/**
 * The EVM sidecar equivalents of a block (ingest.md §3.3): what a v6 record file put in its sidecars, rebuilt
 * from a block transaction's own state changes and trace data, so the derivation that turns sidecar records
 * into rows serves blocks unchanged.
 * - Storage: the non-identical CONTRACT_STORAGE (state 4) map updates are the slots written with their committed
 *   value, a map delete a slot cleared (written empty). The trace's slot usages add the values read (and the
 *   slots only read); without them `value_read` stays empty.
 * - Actions: the trace's call trace, the CONTRACT_ACTION sidecar's own message.
 * - Bytecode: the initcode a creation ran (trace data: explicit, or deploy code + runtime + metadata bookends)
 *   and the runtime code stored for the contract (CONTRACT_BYTECODE, state 5).
 * State changes belong to the transaction whose consensus time they carry: a parent's hold the net effect of
 * its children, as the record stream's parent sidecar did.
 */
import { blockTypes } from '../../proto/block.ts';
import type { BlockTransaction, Plain } from './block-reader.ts';
import type { PbContractAction, PbStorageChange, SidecarRecord } from './sidecar-file.ts';
import type { PbEntityId } from './types.ts';

const STORAGE = 4;
const BYTECODE = 5;

/** One bytes field of a serialized state value (as a plain Uint8Array, not the decoder's Buffer). */
function decodedBytes(type: import('protobufjs').Type, bytes: Uint8Array | undefined, field: string) {
  if (!bytes) return undefined;
  try {
    const value = (type.decode(bytes) as unknown as Record<string, Uint8Array | undefined>)[field];
    return value ? new Uint8Array(value) : undefined;
  } catch {
    return undefined;
  }
}

const idKey = (id: Plain | undefined) => `${id?.shardNum ?? 0n}.${id?.realmNum ?? 0n}.${id?.contractNum ?? 0n}`;

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Bytes of decoded trace data as plain Uint8Arrays (the decoder hands out Buffers). */
const u8 = (bytes: Uint8Array | undefined) => new Uint8Array(bytes ?? new Uint8Array());
const hex = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? new Uint8Array()).toString('hex');

interface StoredSlots {
  readonly contract: PbEntityId;
  /** Non-identical writes in stream order, by slot key hex: the value written (empty when deleted). */
  readonly slots: Map<string, { slot: Uint8Array; value: Uint8Array }>;
}

/**
 * The storage changes of one transaction. With slot usages in its trace data (reads, written keys) they are the
 * sidecar's: each written key with the value read before and the value the state changes committed, then the
 * slots only read. Without them, the committed writes alone.
 */
function storageOf(stored: ReadonlyMap<string, StoredSlots>, usages: readonly Plain[]) {
  if (usages.length === 0) {
    return [...stored.values()].map((s) => ({
      contract_id: s.contract,
      storage_changes: [...s.slots.values()].map(
        (w): PbStorageChange => ({ slot: w.slot, value_written: { value: w.value } }),
      ),
    }));
  }
  return usages.map((usage) => {
    const contract = (usage.contract_id ?? {}) as PbEntityId;
    const slots = stored.get(idKey(contract))?.slots;
    const keys: Uint8Array[] = usage.written_slot_keys
      ? ((usage.written_slot_keys.keys ?? []) as Uint8Array[]).map(u8)
      : [...(slots?.values() ?? [])].map((w) => w.slot);
    const reads = (usage.slot_reads ?? []) as Plain[];
    const readOf = (index: number) => reads.find((r) => r.index !== undefined && Number(r.index) === index);
    const changes: PbStorageChange[] = keys.map((slot, index) => ({
      slot,
      value_read: u8(readOf(index)?.read_value),
      value_written: { value: slots?.get(hex(slot))?.value ?? new Uint8Array() },
    }));
    for (const read of reads) {
      if (read.key === undefined) continue;
      changes.push({ slot: u8(read.key), value_read: u8(read.read_value) });
    }
    return { contract_id: contract, storage_changes: changes };
  });
}

/** The sidecar record of one transaction, or undefined when it touched no storage and deployed no code. */
function recordOf(tx: BlockTransaction): SidecarRecord | undefined {
  const types = blockTypes();
  const stored = new Map<string, StoredSlots>();
  const runtime = new Map<string, Uint8Array>();
  for (const change of tx.stateChanges) {
    const stateId = Number(change.state_id ?? 0);
    const op = (change.map_update ?? change.map_delete) as Plain | undefined;
    if (!op?.key || op.identical) continue;
    if (stateId === STORAGE && op.key.slot_key_key) {
      const slotKey = op.key.slot_key_key as Plain;
      const contract = (slotKey.contractID ?? {}) as PbEntityId;
      const entry = stored.get(idKey(contract)) ?? { contract, slots: new Map() };
      const value = change.map_update
        ? (decodedBytes(types.SlotValueValue, op.value?.slot_value_value, 'value') ?? new Uint8Array())
        : new Uint8Array();
      const slot = (slotKey.key as Uint8Array | undefined) ?? new Uint8Array();
      entry.slots.set(hex(slot), { slot, value });
      stored.set(idKey(contract), entry);
    } else if (stateId === BYTECODE && change.map_update && op.key.contract_id_key) {
      const code = decodedBytes(types.BytecodeValue, op.value?.bytecode_value, 'code');
      if (code) runtime.set(idKey(op.key.contract_id_key), code);
    }
  }
  const evm = tx.traces.map((t) => t.evm_trace_data as Plain | undefined).filter((t) => t !== undefined);
  const storage = storageOf(
    stored,
    evm.flatMap((t) => (t.contract_slot_usages ?? []) as Plain[]),
  );
  const actions = evm.flatMap((t) => (t.contract_actions ?? []) as PbContractAction[]);
  let bytecode: SidecarRecord['bytecode'];
  for (const trace of evm) {
    const executed = trace.executed_initcode as Plain | undefined;
    if (!executed?.contract_id) continue;
    const key = idKey(executed.contract_id);
    const runtimeCode = runtime.get(key);
    const bookends = executed.initcode_bookends as Plain | undefined;
    const initcode = executed.explicit_initcode
      ? (executed.explicit_initcode as Uint8Array)
      : bookends && runtimeCode
        ? concat([
            bookends.deploy_bytecode ?? new Uint8Array(),
            runtimeCode,
            bookends.metadata_bytecode ?? new Uint8Array(),
          ])
        : undefined;
    bytecode = {
      contract_id: executed.contract_id as PbEntityId,
      ...(initcode ? { initcode } : {}),
      ...(runtimeCode ? { runtime_bytecode: runtimeCode } : {}),
    };
  }
  if (!bytecode && runtime.size === 1) {
    // Code stored without a traced creation (a creation with trace data disabled): the runtime alone.
    const [[key, code]] = [...runtime] as [[string, Uint8Array]];
    const [shardNum, realmNum, contractNum] = key.split('.').map(BigInt) as [bigint, bigint, bigint];
    bytecode = { contract_id: { shardNum, realmNum, contractNum }, runtime_bytecode: code };
  }
  if (storage.length === 0 && actions.length === 0 && !bytecode) return undefined;
  return {
    consensusTimestamp: tx.consensusTimestamp,
    migration: false,
    ...(storage.length > 0 ? { stateChanges: storage } : {}),
    ...(actions.length > 0 ? { actions } : {}),
    ...(bytecode ? { bytecode } : {}),
  };
}

/** The sidecar records of a block's transactions, in block order. */
export function blockSidecarRecords(transactions: readonly BlockTransaction[]): SidecarRecord[] {
  const out: SidecarRecord[] = [];
  for (const tx of transactions) {
    const record = recordOf(tx);
    if (record) out.push(record);
  }
  return out;
}
