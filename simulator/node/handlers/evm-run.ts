/**
 * One EVM execution for a transaction submitted to a node, on the simulator's EVM and model (evm/evm.ts): the
 * storage of every contract it touched follows into the model, the gas is noted with the ledger's contract results,
 * and the record's function result and the sidecars come out as the generated contract transactions write them.
 * Any contract it runs may call the HTS system contract (0x167, evm/hts-system.ts): the calls change the ledger as
 * they happen (a reverting frame takes its calls back), their actions join the sidecars, and the transaction's
 * handler writes their dispatches as child records after its own (`writeSystemChildren`).
 */
import { fromHex } from '../../evm/abi.ts';
import type { EvmOutcome, SimEvm } from '../../evm/evm.ts';
import { intrinsicGas } from '../../evm/gas.ts';
import { systemFees, withSystemActions, writeDispatchChildren } from '../../evm/hts-records.ts';
import { htsSystemContract, type SystemCallRecord } from '../../evm/hts-system.ts';
import { applyStorage, functionResult, sidecarsOf } from '../../evm/records.ts';
import { longZeroAddress, numOfLongZero } from '../../ledger/ids.ts';
import type { Contract, Ledger } from '../../ledger/ledger.ts';
import { noteResult } from '../../mix/contract-calls.ts';
import { GAS_PRICE_TINYBARS } from '../../network/fees.ts';
import type { Network, SimItem } from '../../network/network.ts';
import type { HbarTransfers } from '../../network/transfers.ts';
import { ensure } from '../handling.ts';

export interface EvmRun {
  readonly outcome: EvmOutcome;
  readonly result: Record<string, unknown>;
  readonly sidecars: Record<string, unknown>[];
  /** The node's status for a failed execution; undefined when it succeeded. */
  readonly failure: string | undefined;
  /** The execution's calls to 0x167, in order (those a reverting frame undid marked `reverted`). */
  readonly systemCalls: readonly SystemCallRecord[];
  /** The creation fees the standing system calls charged their contracts, to add to the transaction's transfers. */
  readonly systemFees: HbarTransfers;
}

/** What a gas limit costs at most, in tinybars. */
export const gasCost = (gas: bigint): bigint => gas * GAS_PRICE_TINYBARS;

/** Fails with `INSUFFICIENT_GAS` when the limit does not cover the intrinsic gas, as the node's precheck does. */
export function checkIntrinsicGas(data: Uint8Array, create: boolean, gas: bigint): void {
  ensure(gas >= intrinsicGas(data, create), 'INSUFFICIENT_GAS');
}

export function failureOf(outcome: EvmOutcome): string | undefined {
  if (outcome.success) return undefined;
  if (outcome.error === 'revert') return 'CONTRACT_REVERT_EXECUTED';
  if (outcome.error === 'out of gas') return 'INSUFFICIENT_GAS';
  return 'CONTRACT_EXECUTION_EXCEPTION';
}

/**
 * The slots an execution wrote, into the model's copy of each contract's storage; a creation calls it again once
 * the new contract is in the model (setting a slot twice to one value changes nothing).
 */
export function applyStorageToModel(ledger: Ledger, outcome: EvmOutcome): void {
  for (const address of new Set(outcome.storage.map((change) => change.address))) {
    const num = numOfLongZero(fromHex(address));
    const touched: Contract | undefined = num === undefined ? undefined : ledger.contracts.get(num);
    if (touched) applyStorage(touched.storage, outcome, address);
  }
}

export async function runEvm(
  ledger: Ledger,
  evm: SimEvm,
  call: {
    readonly consensusNs: bigint;
    readonly sender: bigint;
    readonly contract: bigint;
    readonly create: boolean;
    readonly data: Uint8Array;
    readonly gas: bigint;
    readonly value: bigint;
    /** The constructor parameters, reported apart from the initcode. */
    readonly parameters?: Uint8Array;
  },
): Promise<EvmRun> {
  const system = htsSystemContract(ledger);
  evm.systemContract = system;
  const outcome = await evm
    .transact({
      sender: ledger.canonicalAddress(call.sender),
      contract: longZeroAddress(call.contract),
      create: call.create,
      data: call.data,
      gasLimit: call.gas,
      ...(call.value > 0n ? { value: call.value } : {}),
    })
    .finally(() => {
      evm.systemContract = undefined;
    });
  applyStorageToModel(ledger, outcome);
  noteResult(ledger, call.consensusNs, { contract: call.contract, sender: call.sender, gasLimit: call.gas }, outcome);
  const parameters = call.parameters ?? call.data;
  return {
    outcome,
    failure: failureOf(outcome),
    result: functionResult(call.contract, call.sender, outcome, {
      gas: call.gas,
      functionParameters: parameters,
      created: call.create,
    }),
    sidecars: withSystemActions(
      sidecarsOf(call.contract, call.sender, outcome, {
        gas: call.gas,
        input: call.data,
        created: call.create,
        ...(call.create ? { initcode: call.data, runtime: outcome.runtime } : {}),
      }),
      system.calls,
    ),
    systemCalls: system.calls,
    systemFees: systemFees(system.calls),
  };
}

/**
 * The child records of a run's system calls, after the transaction's record `parent` (whatever its status), paid
 * by its payer: a Handling's `follow`.
 */
export function writeSystemChildren(net: Network, run: () => EvmRun | undefined, payer: bigint) {
  return (parent: SimItem, firstNonce: number): Promise<SimItem[]> => {
    const calls = run()?.systemCalls ?? [];
    return calls.length > 0 ? writeDispatchChildren(net, parent, payer, calls, firstNonce) : Promise.resolve([]);
  };
}
