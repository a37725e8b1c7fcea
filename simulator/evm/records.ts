/**
 * EVM outcomes in the shapes nodes write: the record's ContractFunctionResult (logs with blooms) and the
 * sidecar records (state changes, actions, bytecode). Slots and values are trimmed of leading zeros, and a
 * slot that was only read carries no `value_written`.
 */
import { accountPb, contractPb, i64, longZeroAddress, numOfLongZero } from '../ledger/ids.ts';
import { bloomOf, fromHex, trimmed } from './abi.ts';
import type { EvmOutcome } from './evm.ts';

const CALL = 1;
const CREATE = 2;
const OP_CALL = 1;
const OP_CREATE = 5;

const nonEmpty = (field: string, bytes: Uint8Array) => (bytes.length > 0 ? { [field]: bytes } : {});

export function functionResult(
  contract: bigint,
  sender: bigint,
  outcome: EvmOutcome,
  call: { gas: bigint; functionParameters: Uint8Array; created: boolean },
): Record<string, unknown> {
  const bloom = new Uint8Array(256);
  const logInfo = outcome.logs.map((log) => {
    const logBloom = bloomOf([log.address, ...log.topics]);
    bloomOf([log.address, ...log.topics], bloom);
    const emitter = numOfLongZero(log.address) ?? contract;
    return { contractID: contractPb(emitter), bloom: logBloom, topic: log.topics, ...nonEmpty('data', log.data) };
  });
  return {
    contractID: contractPb(contract),
    ...(outcome.success ? nonEmpty('contractCallResult', outcome.output) : {}),
    ...(outcome.success ? {} : { errorMessage: `0x${Buffer.from(outcome.output).toString('hex')}` }),
    bloom,
    gasUsed: i64(outcome.gasUsed),
    ...(logInfo.length > 0 ? { logInfo } : {}),
    ...(call.created && outcome.success
      ? { createdContractIDs: [contractPb(contract)], evm_address: { value: longZeroAddress(contract) } }
      : {}),
    gas: i64(call.gas),
    ...nonEmpty('functionParameters', call.functionParameters),
    sender_id: accountPb(sender),
  };
}

/** Sidecar payloads of one contract transaction, in the order nodes list them. */
export function sidecarsOf(
  contract: bigint,
  sender: bigint,
  outcome: EvmOutcome,
  call: { gas: bigint; input: Uint8Array; created: boolean; initcode?: Uint8Array; runtime?: Uint8Array },
): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const byContract = new Map<string, Record<string, unknown>[]>();
  for (const change of outcome.storage) {
    const list = byContract.get(change.address) ?? [];
    list.push({
      ...nonEmpty('slot', trimmed(change.slot)),
      ...nonEmpty('value_read', trimmed(change.valueRead)),
      ...(change.valueWritten ? { value_written: nonEmpty('value', trimmed(change.valueWritten)) } : {}),
    });
    byContract.set(change.address, list);
  }
  if (byContract.size > 0) {
    out.push({
      state_changes: {
        contract_state_changes: [...byContract].map(([address, storage_changes]) => ({
          contract_id: contractPb(numOfLongZero(fromHex(address)) ?? contract),
          storage_changes,
        })),
      },
    });
  }
  out.push({
    actions: {
      contract_actions: [
        {
          call_type: call.created ? CREATE : CALL,
          calling_account: accountPb(sender),
          gas: i64(call.gas),
          ...nonEmpty('input', call.input),
          recipient_contract: contractPb(contract),
          gas_used: i64(outcome.gasUsed),
          ...(outcome.success ? nonEmpty('output', outcome.output) : { revert_reason: outcome.output }),
          call_operation_type: call.created ? OP_CREATE : OP_CALL,
        },
      ],
    },
  });
  if (call.created && outcome.success && call.initcode && call.runtime) {
    out.push({
      bytecode: { contract_id: contractPb(contract), initcode: call.initcode, runtime_bytecode: call.runtime },
    });
  }
  return out;
}

/** Applies written slots to the model's copy of a contract's storage. */
export function applyStorage(storage: Map<string, string>, outcome: EvmOutcome, contractAddress: string): void {
  for (const change of outcome.storage) {
    if (!change.valueWritten || change.address !== contractAddress) continue;
    const slot = Buffer.from(trimmed(change.slot)).toString('hex');
    const value = Buffer.from(trimmed(change.valueWritten)).toString('hex');
    if (value === '') storage.delete(slot);
    else storage.set(slot, value);
  }
}
