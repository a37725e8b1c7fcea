/**
 * Real EVM execution for the simulated network's contract transactions (@ethereumjs/evm, Cancun rules), run as a
 * consensus node runs them: every transaction is its own EVM transaction over the shared state (empty warm sets
 * with the sender, the recipient and the precompiles warm, original slot values and transient storage of its own),
 * with intrinsic gas (EIP-3860 included), refunds capped at a fifth, and Hedera's charge of at least 80% of the gas
 * limit. Contracts live at the long-zero address of their entity number, as HAPI-created contracts do;
 * `msg.sender` and `tx.origin` are the sender's canonical address.
 */
import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import { Account, Address, createAddressFromString } from '@ethereumjs/util';
import { redirectBytecode } from '../../common/redirect-bytecode.ts';
import { CHAIN_ID } from './ethereum-tx.ts';
import { afterRefund, chargedGas, existingAuthorityRefund, intrinsicGas } from './gas.ts';
import { HederaEvm, type SystemContractHooks } from './hedera-evm.ts';
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

export interface EvmTransaction {
  /** The sender's canonical address (its EVM address when it has one, else long-zero). */
  readonly sender: Uint8Array;
  /** The contract called, or for a creation the address the new contract gets. */
  readonly contract: Uint8Array;
  readonly create: boolean;
  /** Call data, or for a creation the initcode with its constructor arguments. */
  readonly data: Uint8Array;
  readonly gasLimit: bigint;
  /** Tinybars sent with the call (the EVM's unit of value on Hedera). */
  readonly value?: bigint;
  /** Type 4: how many authorizations the transaction carries (each costs intrinsic gas, valid or not). */
  readonly authorizationCount?: number;
  /**
   * Type 4: the valid authorizations, applied in order before the call (they stay when it reverts). Every
   * authority is an existing account, so each earns the EIP-7702 refund.
   */
  readonly delegations?: readonly Delegation[];
}

/** An authority's code set to run the delegate's (the zero address: cleared). */
export interface Delegation {
  readonly authority: Uint8Array;
  readonly delegate: Uint8Array;
}

export interface EvmOutcome {
  readonly success: boolean;
  /** Return data of a call, or the revert data when it reverted; empty for a successful creation. */
  readonly output: Uint8Array;
  /** The runtime code a successful creation installed. */
  readonly runtime: Uint8Array;
  /** What the EVM used: intrinsic gas plus execution, less the capped refund (what an estimate is compared with). */
  readonly evmGasUsed: bigint;
  /** What the network charged and recorded: `evmGasUsed`, but at least 80% of the gas limit. */
  readonly gasUsed: bigint;
  readonly logs: readonly EvmLog[];
  readonly storage: readonly StorageChange[];
  /** EVM error name (`revert`, `out of gas`, …) when not successful. */
  readonly error: string | undefined;
}

/**
 * A contract as the EVM state holds it: runtime code and storage (slot and value hex, leading zeros trimmed); or a
 * delegated account, with its delegation designation as code.
 */
export interface InstalledContract {
  readonly address: Uint8Array;
  readonly runtime: Uint8Array;
  readonly storage: ReadonlyMap<string, string>;
}

/** EIP-7702's delegation designation: an account whose code is `0xef0100 || address` runs the code at `address`. */
export function delegationCode(delegate: Uint8Array): Uint8Array {
  return delegate.every((byte) => byte === 0) ? new Uint8Array() : Uint8Array.of(0xef, 0x01, 0x00, ...delegate);
}

const bytesOfHex = (hex: string) => new Uint8Array(Buffer.from(hex.length % 2 === 1 ? `0${hex}` : hex, 'hex'));

export class SimEvm {
  /**
   * Cancun with EIP-7702, as the consensus node's EVM since HIP-1340 (a call to a delegated account runs its
   * delegate), on the chain the network signs for.
   */
  private readonly common = createCustomCommon({ chainId: Number(CHAIN_ID) }, Mainnet, {
    hardfork: Hardfork.Cancun,
    eips: [7702],
  });
  private readonly state = new TrackingStateManager();
  private readonly evm = new HederaEvm(this.common, this.state);

  /** What answers calls to the Hedera Token Service (0x167) from now on; undefined: such a call halts. */
  set systemContract(hooks: SystemContractHooks | undefined) {
    this.evm.systemContract = hooks;
    // A token's address shows the node's redirect proxy to EXTCODESIZE and EXTCODECOPY: contracts compiled before
    // Solidity 0.8.10 check a callee's code size before calling it. Calls to it still go to `tokenProxy`.
    const proxy = hooks?.tokenProxy;
    this.state.codeOf = proxy
      ? (address) => (proxy(address) ? redirectBytecode('TOKEN', address.bytes) : undefined)
      : undefined;
  }

  /** Puts contracts an earlier run created into the state, as they were when it stopped. */
  async install(contracts: readonly InstalledContract[]): Promise<void> {
    for (const contract of contracts) {
      const address = new Address(contract.address);
      await this.state.putAccount(address, new Account(1n));
      await this.state.putCode(address, contract.runtime);
      for (const [slot, value] of contract.storage) {
        const key = new Uint8Array(32);
        key.set(bytesOfHex(slot), 32 - bytesOfHex(slot).length);
        await this.state.putStorage(address, key, bytesOfHex(value));
      }
    }
  }

  /** Sets an account's code to the EIP-7702 designation of `delegate`, or clears it. */
  async delegate({ authority, delegate }: Delegation): Promise<void> {
    const address = new Address(authority);
    if (!(await this.state.getAccount(address))) await this.state.putAccount(address, new Account(0n));
    await this.state.putCode(address, delegationCode(delegate));
  }

  /** Runs `tx` and undoes everything it did: a node's ContractCallLocal, which answers without changing state. */
  async callLocal(tx: EvmTransaction): Promise<EvmOutcome> {
    await this.state.checkpoint();
    try {
      return await this.transact(tx);
    } finally {
      await this.state.revert();
    }
  }

  async transact(tx: EvmTransaction): Promise<EvmOutcome> {
    const delegations = tx.delegations ?? [];
    const intrinsic = intrinsicGas(tx.data, tx.create, tx.authorizationCount ?? 0);
    if (intrinsic > tx.gasLimit)
      throw new Error(`simulator: gas limit ${tx.gasLimit} below intrinsic gas ${intrinsic}`);
    const sender = new Address(tx.sender);
    const contract = new Address(tx.contract);
    const evm = this.evm;
    evm.beginTransaction(tx.create ? contract : undefined);
    // Original values (EIP-2200/3529) are those before this transaction, never those before an earlier one.
    this.state.originalStorageCache.clear();
    for (const delegation of delegations) await this.delegate(delegation);
    // EIP-7702 adds each authority to the accessed addresses; the EVM warms a called account's delegate itself.
    const authorities = delegations.map((d) => new Address(d.authority).toString());
    for (const warm of [sender.toString(), contract.toString(), ...evm.precompiles.keys(), ...authorities]) {
      evm.journal.addAlwaysWarmAddress(warm);
    }
    this.state.startTracking();
    const { execResult } = await evm.runCall({
      caller: sender,
      origin: sender,
      ...(tx.create ? {} : { to: contract }),
      data: tx.data,
      gasLimit: tx.gasLimit - intrinsic,
      ...(tx.value ? { value: tx.value } : {}),
      // HAPI contract transactions neither move the sender's Ethereum nonce nor need a balance for gas here.
      skipNonceIncrement: true,
      skipBalance: true,
    });
    await evm.journal.cleanup();
    const success = !execResult.exceptionError;
    const used = intrinsic + execResult.executionGasUsed;
    // The authorizations' refund is counted before the call, so a revert keeps it; the call's own refunds go with it.
    const refund = (success ? (execResult.gasRefund ?? 0n) : 0n) + existingAuthorityRefund(delegations.length);
    const evmGasUsed = afterRefund(used, refund);
    return {
      success,
      output: tx.create && success ? new Uint8Array() : execResult.returnValue,
      runtime: tx.create && success ? await this.state.getCode(contract) : new Uint8Array(),
      evmGasUsed,
      gasUsed: chargedGas(evmGasUsed, tx.gasLimit),
      logs: success ? (execResult.logs ?? []).map(([address, topics, data]) => ({ address, topics, data })) : [],
      storage: await this.storageChanges(success),
      error: execResult.exceptionError?.error,
    };
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
