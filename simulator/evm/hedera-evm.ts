/**
 * The EVM contract transactions run in. A consensus node gives a contract created through HAPI the long-zero
 * address of its new entity number, not an address derived from the creator's nonce, so the top-level CREATE of
 * a transaction lands where the transaction says; nested CREATEs keep Ethereum's rules. One instance serves every
 * transaction (building one compiles the fork's opcode and gas tables, and registers a listener on the shared
 * Common that is never removed): `beginTransaction` gives each its own transient storage, and the journal's
 * `cleanup` after each run empties the warm sets. The Hedera Token Service's system contract (0x167) answers
 * through `systemContract`, which the transaction that may call it sets; it hears of every frame's start and end, so
 * that a frame that reverts takes back the system calls made within it, as the node's savepoints do.
 */
import type { Common, StateManagerInterface } from '@ethereumjs/common';
import {
  EVM,
  EVMError,
  EVMMockBlockchain,
  type EVMResult,
  type EVMRunCallOpts,
  type ExecResult,
  type Message,
  NobleBN254,
  type PrecompileInput,
} from '@ethereumjs/evm';
import type { Account, Address } from '@ethereumjs/util';

/** The Hedera Token Service's system contract, 0.0.359. */
export const HTS_ADDRESS = '0x0000000000000000000000000000000000000167';

/** A call to the system contract: who called it (the calling frame's address), with what, and how much gas. */
export interface SystemCall {
  readonly caller: Address;
  /** The system call's own depth in the transaction's call tree (1: called by the top-level contract). */
  readonly depth: number;
  readonly data: Uint8Array;
  readonly gasLimit: bigint;
  readonly isStatic: boolean;
  /** Tinybars sent with the call: a token creation's fee is paid from it. */
  readonly value: bigint;
}

export type SystemContract = (call: SystemCall) => ExecResult;

/** The system contract a transaction runs with: its answer, and the frames around its calls. */
export interface SystemContractHooks {
  readonly handler: SystemContract;
  /** What answers calls to `address` when it is a token's (its ERC redirect), else undefined. */
  readonly tokenProxy?: (address: Address) => SystemContract | undefined;
  /** A call frame starts (the top-level call's included). */
  enterFrame(): void;
  /** The frame that started last ends: reverted (its effects undone, the system calls within it too) or not. */
  leaveFrame(reverted: boolean): void;
}

/** A halt that takes all the gas the frame was given, as the node's system contracts halt. */
export function haltResult(gasLimit: bigint): ExecResult {
  return {
    returnValue: new Uint8Array(),
    executionGasUsed: gasLimit,
    exceptionError: new EVMError(EVMError.errorMessages.OUT_OF_GAS),
  };
}

export class HederaEvm extends EVM {
  private createdAt: Address | undefined;
  /** The message being run; when it is the system contract's, its caller is the calling frame. */
  private current: Message | undefined;
  /** Answers calls to 0x167 during the transaction that set it; without it a call there runs out of gas. */
  systemContract: SystemContractHooks | undefined;

  constructor(common: Common, stateManager: StateManagerInterface) {
    super({
      common,
      stateManager,
      bn254: new NobleBN254(),
      blockchain: new EVMMockBlockchain(),
      customPrecompiles: [{ address: HTS_ADDRESS, function: (input) => (input._EVM as HederaEvm).system(input) }],
    });
  }

  private system(input: PrecompileInput): ExecResult {
    const message = this.current;
    if (!this.systemContract || !message) return haltResult(input.gasLimit);
    return this.systemContract.handler({
      caller: message.caller,
      depth: message.depth,
      data: input.data,
      gasLimit: input.gasLimit,
      isStatic: message.isStatic,
      value: message.value,
    });
  }

  /** Every frame runs here (ethereumjs journals each message in `runCall`, reverting it when it fails). */
  override async runCall(opts: EVMRunCallOpts): Promise<EVMResult> {
    const hooks = this.systemContract;
    hooks?.enterFrame();
    let reverted = true;
    try {
      const result = await super.runCall(opts);
      reverted = result.execResult.exceptionError !== undefined;
      return result;
    } finally {
      hooks?.leaveFrame(reverted);
    }
  }

  protected override _executeCall(message: Message & { to: Address }): Promise<EVMResult> {
    this.current = message;
    const proxy = this.systemContract?.tokenProxy?.(message.to);
    if (proxy) {
      // A token's address runs its ERC redirect: the node's token proxy hands the call to 0x167 for the token.
      const execResult = proxy({
        caller: message.caller,
        depth: message.depth,
        data: message.data,
        gasLimit: message.gasLimit,
        isStatic: message.isStatic,
        value: message.value,
      });
      return Promise.resolve({ execResult });
    }
    return super._executeCall(message);
  }

  /**
   * Value sent to the system contract (a token creation's) does not move: the node collects the creation's fee
   * from the caller instead (CustomMessageCallProcessor), so 0x167 never holds a balance and every such call finds
   * it empty, as it is on the node.
   */
  protected override _reduceSenderBalance(account: Account, message: Message): Promise<void> {
    if (message.to?.toString() === HTS_ADDRESS) return Promise.resolve();
    return super._reduceSenderBalance(account, message);
  }

  protected override _addToBalance(toAccount: Account, message: Message & { to: Address }): Promise<void> {
    if (message.to.toString() === HTS_ADDRESS) return Promise.resolve();
    return super._addToBalance(toAccount, message);
  }

  /** Starts a transaction: empty transient storage, and for a creation the address its contract gets. */
  beginTransaction(createdAt: Address | undefined): void {
    this.createdAt = createdAt;
    this.transientStorage.clear();
  }

  protected override async _generateAddress(message: Message): Promise<Address> {
    if (message.depth === 0 && this.createdAt) return this.createdAt;
    return super._generateAddress(message);
  }
}
