/**
 * v6 sidecar records joined to their transactions by consensus timestamp: storage changes
 * (`contract_state_change`, current values in `contract_state`), call actions (`contract_action`) and migration
 * bytecode (`contract.runtime_bytecode`); what a transaction's contract result and created contract take from its
 * records is summed up in SidecarFacts.
 */
import type { PbStorageChange, SidecarRecord } from '../decode/sidecar-file.ts';
import { accountId, contractId, idParts } from './context.ts';
import type { FileRows } from './file-rows.ts';
import { HOOK_CONTRACT_NUM } from './hooks.ts';

const CREATE = 2;

/** What a contract_result takes from its transaction's sidecar records (the importer's SidecarProcessingResult). */
export interface SidecarFacts {
  /** gas_used of the top-level action (call depth 0), when the sidecars have actions. */
  readonly topLevelGasUsed: bigint | undefined;
  /** The top-level action is a CREATE, or a (non-migration) bytecode record came with it. */
  readonly creation: boolean;
  /** The init code of that bytecode record. */
  readonly initcode: Uint8Array | undefined;
  /** The bytecode records (not migration ones): a ContractCreate keeps the one of the contract it creates. */
  readonly bytecodes: readonly { contractId: bigint; initcode: Uint8Array; runtimeBytecode: Uint8Array }[];
  /** The contract of each storage change, in order: they take part in the contract transaction. */
  readonly stateContracts: readonly bigint[];
  /** State changes of the hook contract 0.0.365: a hook execution's are its hook's storage (hooks.ts). */
  readonly hookStateChanges: readonly (readonly PbStorageChange[])[];
}

/** The sidecar facts of each transaction, by consensus timestamp. */
export function sidecarFacts(records: readonly SidecarRecord[]): Map<bigint, SidecarFacts> {
  const out = new Map<bigint, SidecarFacts>();
  for (const record of records) {
    const ts = record.consensusTimestamp;
    let facts: SidecarFacts = out.get(ts) ?? {
      topLevelGasUsed: undefined,
      creation: false,
      initcode: undefined,
      bytecodes: [],
      stateContracts: [],
      hookStateChanges: [],
    };
    for (const change of record.stateChanges ?? []) {
      const contract = contractId(change.contract_id);
      facts = { ...facts, stateContracts: [...facts.stateContracts, ...change.storage_changes.map(() => contract)] };
      if (idParts(contract).num === HOOK_CONTRACT_NUM) {
        facts = { ...facts, hookStateChanges: [...facts.hookStateChanges, change.storage_changes] };
      }
    }
    for (const action of record.actions ?? []) {
      if ((action.call_depth ?? 0) === 0) {
        facts = { ...facts, topLevelGasUsed: action.gas_used ?? 0n, creation: action.call_type === CREATE };
      }
    }
    if (record.bytecode && !record.migration) {
      const bytecode = {
        contractId: contractId(record.bytecode.contract_id),
        initcode: record.bytecode.initcode ?? new Uint8Array(),
        runtimeBytecode: record.bytecode.runtime_bytecode ?? new Uint8Array(),
      };
      facts = { ...facts, creation: true, initcode: bytecode.initcode, bytecodes: [...facts.bytecodes, bytecode] };
    }
    out.set(ts, facts);
  }
  return out;
}

/** Left-pads a storage slot to 32 bytes, the key `contract_state` uses. */
function slot32(slot: Uint8Array): Uint8Array {
  if (slot.length >= 32) return slot;
  const out = new Uint8Array(32);
  out.set(slot, 32 - slot.length);
  return out;
}

export function deriveSidecarRecords(
  rows: FileRows,
  records: readonly SidecarRecord[],
  payerAt: (timestamp: bigint) => bigint | undefined,
  hookExecutions: ReadonlySet<bigint> = new Set(),
): void {
  for (const record of records) {
    const ts = record.consensusTimestamp;
    const payer = payerAt(ts);
    // The importer reads the sidecar records of the file's transactions only, by consensus time.
    if (payer === undefined) continue;
    for (const change of record.stateChanges ?? []) {
      const contract = contractId(change.contract_id);
      if (hookExecutions.has(ts) && idParts(contract).num === HOOK_CONTRACT_NUM) continue;
      for (const storage of change.storage_changes) {
        const slot = storage.slot ?? new Uint8Array();
        const written = storage.value_written?.value;
        rows.insert('contract_state_change', {
          consensus_timestamp: ts,
          contract_id: contract,
          payer_account_id: payer,
          slot,
          value_read: storage.value_read ?? new Uint8Array(),
          value_written: storage.value_written ? (written ?? new Uint8Array()) : null,
          migration: record.migration,
        });
        // A write sets the current value; a migration record states it even when it only read it.
        if (storage.value_written || record.migration) {
          rows.replace('contract_state', {
            contract_id: contract,
            slot: slot32(slot),
            value: storage.value_written ? (written ?? new Uint8Array()) : (storage.value_read ?? new Uint8Array()),
            created_timestamp: ts,
            modified_timestamp: ts,
          });
        }
      }
    }
    (record.actions ?? []).forEach((action, index) => {
      const callerAccount = accountId(action.calling_account);
      const callerContract = contractId(action.calling_contract);
      const resultType =
        action.output !== undefined
          ? 11
          : action.revert_reason !== undefined
            ? 12
            : action.error !== undefined
              ? 13
              : 0;
      rows.insert('contract_action', {
        call_depth: action.call_depth ?? 0,
        call_operation_type: action.call_operation_type ?? 0,
        call_type: action.call_type ?? 0,
        caller: callerContract || callerAccount || null,
        caller_type: callerContract ? 'CONTRACT' : callerAccount ? 'ACCOUNT' : null,
        consensus_timestamp: ts,
        gas: action.gas ?? 0n,
        gas_used: action.gas_used ?? 0n,
        index,
        input: action.input ?? new Uint8Array(),
        payer_account_id: payer,
        recipient_account: accountId(action.recipient_account) || null,
        recipient_address: action.targeted_address ?? null,
        recipient_contract: contractId(action.recipient_contract) || null,
        result_data: action.output ?? action.revert_reason ?? action.error ?? null,
        result_data_type: resultType,
        value: action.value ?? 0n,
      });
    });
    // A migration's bytecode sets the contract's runtime bytecode and makes the entity a contract
    // (SidecarContractMigration); a creation's is its ContractCreate's (contract.ts).
    if (record.bytecode && record.migration) {
      const id = contractId(record.bytecode.contract_id);
      rows.replace('contract', { id, runtime_bytecode: record.bytecode.runtime_bytecode ?? new Uint8Array() });
      rows.migratedContracts.push(id);
    }
  }
}
