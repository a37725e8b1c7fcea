/**
 * What a system contract knows of the frame it runs in. @ethereumjs hands a precompile only its input, so the EVM's
 * `beforeMessage` and `afterMessage` events, which fire around each frame, keep the stack of open frames: when a
 * precompile runs, its own frame is on top (static or not, its caller) and the frame that called it below. The same
 * events keep the run's token ledger in step with the EVM's checkpoints: a frame opens one, and closes it by
 * committing or, when the frame failed, reverting.
 */
import type { EVM, EVMInterface, EVMResult, Message } from '@ethereumjs/evm';
import { LedgerState } from '../ledger-state.ts';
import type { EntityNumbers } from '../next-entity-id.ts';
import type { LedgerReader } from '../types.ts';
import { TokenLedger } from './token-ledger.ts';

interface Run {
  /** Frames entered and not yet left, the innermost last. */
  readonly frames: Message[];
  /** The caller of the top-level frame: the request's sender. */
  readonly origin: Uint8Array;
  ledger: TokenLedger | undefined;
}

const runs = new WeakMap<object, Run>();

/** Makes the system contracts of `evm` see their frames; without it every frame counts as not static. */
export function trackCallFrames(evm: EVM): void {
  evm.events.on('beforeMessage', (message: Message) => {
    let run = runs.get(evm);
    if (!run || message.depth === 0) {
      run = { frames: [], origin: message.caller.bytes, ledger: undefined };
      runs.set(evm, run);
    }
    run.frames.push(message);
    run.ledger?.checkpoint();
  });
  evm.events.on('afterMessage', (result: EVMResult) => {
    const run = runs.get(evm);
    if (!run) return;
    run.frames.pop();
    if (result.execResult.exceptionError) {
      run.ledger?.revert();
    } else {
      run.ledger?.commit();
    }
  });
}

export const isStaticFrame = (evm: EVMInterface): boolean => runs.get(evm)?.frames.at(-1)?.isStatic === true;

/** The caller of the running frame (for a DELEGATECALL, the caller of the frame that delegated). */
export const frameCaller = (evm: EVMInterface): Uint8Array | undefined => runs.get(evm)?.frames.at(-1)?.caller.bytes;

/**
 * The address a running DELEGATECALL frame executes for (the contract that delegated); undefined for any other
 * call.
 */
export const delegatingContract = (evm: EVMInterface): Uint8Array | undefined => {
  const frame = runs.get(evm)?.frames.at(-1);
  return frame?.delegatecall ? frame.to?.bytes : undefined;
};

/** The depth of the running frame (0 for the request's own call). */
export const frameDepth = (evm: EVMInterface): number => runs.get(evm)?.frames.at(-1)?.depth ?? 0;

/** The value the running frame carries. */
export const frameValue = (evm: EVMInterface): bigint => runs.get(evm)?.frames.at(-1)?.value ?? 0n;

/**
 * Whether the contract that called the running system contract runs delegated code (its frame is a DELEGATECALL,
 * or the system contract was reached through a token or account proxy from such a frame): a ContractID key then
 * does not sign for it, only a DelegatableContractID key (ActiveContractVerificationStrategy).
 */
export function callerIsDelegated(evm: EVMInterface): boolean {
  const frames = runs.get(evm)?.frames ?? [];
  const own = frames.at(-1);
  // Through a proxy the system contract's frame is itself a DELEGATECALL; the caller's frame is the one below.
  const caller = own?.delegatecall ? frames.at(-3) : frames.at(-2);
  return caller?.delegatecall === true;
}

/** The sender of the run's top-level frame. */
export const runOrigin = (evm: EVMInterface): Uint8Array | undefined => runs.get(evm)?.origin;

/** The token ledger of the run, made on first use with as many open checkpoints as there are open frames. */
export function tokenLedgerOf(evm: EVMInterface, reader: LedgerReader): TokenLedger {
  const run = runs.get(evm);
  if (!run) return new TokenLedger(reader);
  if (!run.ledger) {
    run.ledger = new TokenLedger(reader);
    for (const _ of run.frames) run.ledger.checkpoint();
  }
  return run.ledger;
}

/**
 * The entity numbers of the run (the next one a created token takes): the state's own counter, the one CREATE
 * allocates from, so a contract and a token created in one call never share a number. The state checkpoints it with
 * the EVM's frames, so a reverted frame gives its numbers back.
 */
export function entityNumbersOf(evm: EVMInterface): Promise<EntityNumbers> {
  if (!(evm.stateManager instanceof LedgerState)) throw new Error('a token is created only on a LedgerState');
  return evm.stateManager.numbers();
}
