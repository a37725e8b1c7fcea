/**
 * The EVM sidecar equivalents of a block (ingest.md §3.3): what a v6 record file put in its sidecars, rebuilt
 * from a block transaction's own state changes and trace data, so the derivation that turns sidecar records
 * into rows serves blocks unchanged.
 * - Storage: every CONTRACT_STORAGE (state 4) map update is a slot written with its new value, a map delete a
 *   slot cleared (written empty). The stream carries no values read, so `value_read` stays empty.
 * - Bytecode: the initcode a creation ran (trace data: explicit, or deploy code + runtime + metadata bookends)
 *   and the runtime code stored for the contract (CONTRACT_BYTECODE, state 5).
 * State changes belong to the transaction whose consensus time they carry: a parent's hold the net effect of
 * its children, as the record stream's parent sidecar did.
 */
import { blockTypes } from '../../proto/block.ts';
import type { BlockTransaction, Plain } from './block-reader.ts';
import type { PbStorageChange, SidecarRecord } from './sidecar-file.ts';
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

/** The sidecar record of one transaction, or undefined when it touched no storage and deployed no code. */
function recordOf(tx: BlockTransaction): SidecarRecord | undefined {
  const types = blockTypes();
  const storage = new Map<string, { contract: PbEntityId; changes: PbStorageChange[] }>();
  const runtime = new Map<string, Uint8Array>();
  for (const change of tx.stateChanges) {
    const stateId = Number(change.state_id ?? 0);
    const op = (change.map_update ?? change.map_delete) as Plain | undefined;
    if (!op?.key) continue;
    if (stateId === STORAGE && op.key.slot_key_key) {
      const slotKey = op.key.slot_key_key as Plain;
      const contract = (slotKey.contractID ?? {}) as PbEntityId;
      const entry = storage.get(idKey(contract)) ?? { contract, changes: [] };
      const value = change.map_update
        ? (decodedBytes(types.SlotValueValue, op.value?.slot_value_value, 'value') ?? new Uint8Array())
        : new Uint8Array();
      entry.changes.push({ slot: slotKey.key ?? new Uint8Array(), value_written: { value } });
      storage.set(idKey(contract), entry);
    } else if (stateId === BYTECODE && change.map_update && op.key.contract_id_key) {
      const code = decodedBytes(types.BytecodeValue, op.value?.bytecode_value, 'code');
      if (code) runtime.set(idKey(op.key.contract_id_key), code);
    }
  }
  let bytecode: SidecarRecord['bytecode'];
  for (const trace of tx.traces) {
    const executed = trace.evm_trace_data?.executed_initcode as Plain | undefined;
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
  if (storage.size === 0 && !bytecode) return undefined;
  return {
    consensusTimestamp: tx.consensusTimestamp,
    migration: false,
    ...(storage.size > 0
      ? { stateChanges: [...storage.values()].map((s) => ({ contract_id: s.contract, storage_changes: s.changes })) }
      : {}),
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
