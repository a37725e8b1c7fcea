/**
 * The EVM sidecar equivalents of a block (ingest.md §3.3): what a v6 record file put in its sidecars, rebuilt
 * for each EVM transaction (a contract call, contract create or Ethereum transaction with its EVM result output)
 * from its trace data and its unit's state changes, so the derivation that turns sidecar records into rows
 * serves blocks unchanged. As the reference does:
 * - Actions: the trace's call trace, the CONTRACT_ACTION sidecar's own message.
 * - Bytecode: for a ContractCreate whose unit stored runtime code (CONTRACT_BYTECODE, state 5) for the created
 *   contract: that code, with the initcode the trace reports (explicit, or deploy code + runtime + metadata).
 * - Storage: from the trace's slot usages only (block-storage.ts); a transaction without them has none.
 */
import protobuf from 'protobufjs';
import { hapi } from '../../proto/hapi.ts';
import type { BlockTransaction, Plain } from './block-reader.ts';
import { contractKey, StorageLinks } from './block-storage.ts';
import type { PbContractAction, SidecarRecord } from './sidecar-file.ts';
import type { PbEntityId } from './types.ts';

const CONTRACT_CREATE = 8;
const ETHEREUM = 50;
const ATOMIC_BATCH = 74;

let serviceFields: ReadonlySet<number> | undefined;

/** The transaction type (the TransactionBody field of its service body), read off the wire without decoding. */
function bodyType(bodyBytes: Uint8Array): number {
  serviceFields ??= new Set(hapi().TransactionBody.oneofs.data?.fieldsArray.map((f) => f.id) ?? []);
  const reader = protobuf.Reader.create(bodyBytes);
  try {
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      if (serviceFields.has(tag >>> 3)) return tag >>> 3;
      reader.skipType(tag & 7);
    }
  } catch {
    // A body the block reader decoded cannot be malformed; no type then.
  }
  return 0;
}

/** The EVM result of a transaction, from the output its type reports it in. */
function evmResultOf(tx: BlockTransaction, type: number): Plain | undefined {
  for (const output of tx.outputs) {
    if (type === CONTRACT_CREATE) {
      if (output.contract_create) return output.contract_create.evm_transaction_result;
    } else if (type === ETHEREUM) {
      const ethereum = output.ethereum_call as Plain | undefined;
      if (ethereum) return ethereum.evm_call_transaction_result ?? ethereum.evm_create_transaction_result;
    } else if (output.contract_call) return output.contract_call.evm_transaction_result;
  }
  return undefined;
}

function bytecodeOf(links: StorageLinks, index: number, evm: Plain, trace: Plain | undefined) {
  const contractId = evm.contract_id as PbEntityId | undefined;
  const runtime = contractId ? links.context(index).bytecode.get(contractKey(contractId)) : undefined;
  if (!contractId || !runtime) return undefined;
  const executed = trace?.executed_initcode as Plain | undefined;
  const bookends = executed?.initcode_bookends as Plain | undefined;
  const initcode = executed?.explicit_initcode
    ? new Uint8Array(executed.explicit_initcode as Uint8Array)
    : bookends
      ? new Uint8Array(
          Buffer.concat([
            bookends.deploy_bytecode ?? new Uint8Array(),
            runtime,
            bookends.metadata_bytecode ?? new Uint8Array(),
          ]),
        )
      : undefined;
  return { contract_id: contractId, runtime_bytecode: runtime, ...(initcode ? { initcode } : {}) };
}

/** The sidecar records of a block's EVM transactions, in block order. */
export function blockSidecarRecords(transactions: readonly BlockTransaction[]): SidecarRecord[] {
  const types = transactions.map((tx) => bodyType(tx.bodyBytes));
  const links = new StorageLinks(transactions, (i) => types[i] === ATOMIC_BATCH);
  const out: SidecarRecord[] = [];
  // Reverse order: a transaction's value written may be the value a later one read.
  for (let i = transactions.length - 1; i >= 0; i--) {
    const tx = transactions[i] as BlockTransaction;
    const type = types[i] as number;
    const evm = evmResultOf(tx, type);
    if (!evm) continue;
    // At most one EVM trace per transaction: the first.
    const trace = tx.traces.find((t) => t.evm_trace_data)?.evm_trace_data as Plain | undefined;
    const actions = (trace?.contract_actions ?? []) as PbContractAction[];
    const bytecode = type === CONTRACT_CREATE ? bytecodeOf(links, i, evm, trace) : undefined;
    const storage = links.storageChanges(i, (trace?.contract_slot_usages ?? []) as Plain[]);
    if (storage.length === 0 && actions.length === 0 && !bytecode) continue;
    out.push({
      consensusTimestamp: tx.consensusTimestamp,
      migration: false,
      ...(storage.length > 0 ? { stateChanges: storage } : {}),
      ...(actions.length > 0 ? { actions } : {}),
      ...(bytecode ? { bytecode } : {}),
    });
  }
  return out.reverse();
}
