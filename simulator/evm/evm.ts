/**
 * Real EVM execution for the simulated network's contract transactions (@ethereumjs/evm, Cancun rules).
 * Contracts live at the long-zero address of their entity number, as HAPI-created contracts do, and callers are
 * the long-zero addresses of their accounts. Results carry what records and sidecars need: gas, output, logs,
 * and the storage slots read and written.
 */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createEVM, type EVM } from '@ethereumjs/evm';
import { Account, Address, createAddressFromString } from '@ethereumjs/util';
import { longZeroAddress } from '../ledger/ids.ts';
import { TrackingStateManager } from './tracking-state.ts';

export interface EvmLog {
  readonly address: Uint8Array;
  readonly topics: readonly Uint8Array[];
  readonly data: Uint8Array;
}

export interface StorageChange {
  /** Contract address (0x-prefixed hex) whose slot changed. */
  readonly address: string;
  readonly slot: Uint8Array;
  readonly valueRead: Uint8Array;
  /** Undefined when the slot was only read. */
  readonly valueWritten: Uint8Array | undefined;
}

export interface EvmOutcome {
  readonly success: boolean;
  /** Return data, or the revert data when the call reverted. */
  readonly output: Uint8Array;
  /** Total gas of the transaction: intrinsic cost plus execution. */
  readonly gasUsed: bigint;
  readonly logs: readonly EvmLog[];
  readonly storage: readonly StorageChange[];
  /** EVM error name (`revert`, `out of gas`, …) when not successful. */
  readonly error: string | undefined;
}

const TX_GAS = 21_000n;
const CREATE_GAS = 32_000n;
const CODE_DEPOSIT_GAS_PER_BYTE = 200n;

/** Intrinsic gas of a transaction's data: 4 per zero byte, 16 per other byte. */
function calldataGas(data: Uint8Array): bigint {
  let gas = 0n;
  for (const byte of data) gas += byte === 0 ? 4n : 16n;
  return gas;
}

export class SimEvm {
  private readonly evm: EVM;
  private readonly state: TrackingStateManager;

  private constructor(evm: EVM, state: TrackingStateManager) {
    this.evm = evm;
    this.state = state;
  }

  static async create(): Promise<SimEvm> {
    const common = new Common({ chain: Mainnet, hardfork: Hardfork.Cancun });
    const state = new TrackingStateManager({ common });
    const evm = await createEVM({ common, stateManager: state });
    return new SimEvm(evm, state);
  }

  /** Runs `initcode` as the constructor of a contract at `contractNum`'s address and installs the runtime code. */
  async deploy(
    contractNum: bigint,
    sender: bigint,
    initcode: Uint8Array,
    gasLimit: bigint,
  ): Promise<EvmOutcome & { runtime: Uint8Array }> {
    const address = new Address(longZeroAddress(contractNum));
    const intrinsic = TX_GAS + CREATE_GAS + calldataGas(initcode);
    await this.state.checkpoint();
    await this.state.putAccount(address, new Account(1n));
    this.state.startTracking();
    const result = await this.evm.runCode({
      code: initcode,
      data: new Uint8Array(),
      gasLimit: gasLimit - intrinsic,
      to: address,
      caller: new Address(longZeroAddress(sender)),
      origin: new Address(longZeroAddress(sender)),
    });
    const deposit = BigInt(result.returnValue.length) * CODE_DEPOSIT_GAS_PER_BYTE;
    const gasUsed = intrinsic + result.executionGasUsed + deposit;
    const success = !result.exceptionError && gasUsed <= gasLimit;
    if (success) {
      await this.state.putCode(address, result.returnValue);
      await this.state.commit();
    } else {
      await this.state.revert();
    }
    const storage = await this.storageChanges(success);
    return {
      success,
      output: success ? new Uint8Array() : result.returnValue,
      runtime: success ? result.returnValue : new Uint8Array(),
      gasUsed: success ? gasUsed : gasLimit,
      logs: success ? this.logsOf(result.logs) : [],
      storage,
      error: result.exceptionError?.error ?? (success ? undefined : 'out of gas'),
    };
  }

  async call(contractNum: bigint, sender: bigint, data: Uint8Array, gasLimit: bigint): Promise<EvmOutcome> {
    const intrinsic = TX_GAS + calldataGas(data);
    this.state.startTracking();
    const { execResult } = await this.evm.runCall({
      to: new Address(longZeroAddress(contractNum)),
      caller: new Address(longZeroAddress(sender)),
      origin: new Address(longZeroAddress(sender)),
      data,
      gasLimit: gasLimit - intrinsic,
      skipBalance: true,
    });
    const success = !execResult.exceptionError;
    return {
      success,
      output: execResult.returnValue,
      gasUsed: intrinsic + execResult.executionGasUsed,
      logs: success ? this.logsOf(execResult.logs) : [],
      storage: await this.storageChanges(success),
      error: execResult.exceptionError?.error,
    };
  }

  /** A read-only call, for looking at contract state (balances) without touching the stream. */
  async view(contractNum: bigint, data: Uint8Array): Promise<Uint8Array> {
    const { execResult } = await this.evm.runCall({
      to: new Address(longZeroAddress(contractNum)),
      data,
      gasLimit: 1_000_000n,
      isStatic: true,
      skipBalance: true,
    });
    return execResult.returnValue;
  }

  private logsOf(logs: readonly (readonly [Uint8Array, Uint8Array[], Uint8Array])[] | undefined): EvmLog[] {
    return (logs ?? []).map(([address, topics, data]) => ({ address, topics, data }));
  }

  private async storageChanges(success: boolean): Promise<StorageChange[]> {
    const accesses = this.state.stopTracking();
    const out: StorageChange[] = [];
    for (const access of accesses) {
      const written =
        success && access.written
          ? await this.state.getStorage(createAddressFromString(access.address), access.slot)
          : undefined;
      out.push({ address: access.address, slot: access.slot, valueRead: access.before, valueWritten: written });
    }
    return out;
  }
}
