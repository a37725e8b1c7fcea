/**
 * What a system contract knows of the frame it runs in. @ethereumjs hands a precompile only its input, so the EVM's
 * `beforeMessage` event, which fires for each frame right before it runs, records the latest one: when a precompile
 * runs, that is its own frame (static or not, its caller). The same events keep the run's token ledger and entity
 * numbers in step with the EVM's checkpoints: a frame opens one, and closes it by committing or, when the frame
 * failed, reverting.
 */
import type { EVM, EVMInterface, EVMResult, Message } from '@ethereumjs/evm';
import { EntityNumbers } from '../next-entity-id.ts';
import type { LedgerReader } from '../types.ts';
import { ledgerReads } from './ledger-reads.ts';
import { TokenLedger } from './token-ledger.ts';

interface Run {
  latest: Message | undefined;
  /** The caller of the top-level frame: the request's sender. */
  origin: Uint8Array | undefined;
  /** Frames entered and not yet left. */
  open: number;
  ledger: TokenLedger | undefined;
  numbers: EntityNumbers | undefined;
}

const runs = new WeakMap<object, Run>();

/** Makes the system contracts of `evm` see their frames; without it every frame counts as not static. */
export function trackCallFrames(evm: EVM): void {
  evm.events.on('beforeMessage', (message: Message) => {
    let run = runs.get(evm);
    if (!run || message.depth === 0) {
      run = { latest: undefined, origin: message.caller.bytes, open: 0, ledger: undefined, numbers: undefined };
      runs.set(evm, run);
    }
    run.latest = message;
    run.open++;
    run.ledger?.checkpoint();
    run.numbers?.checkpoint();
  });
  evm.events.on('afterMessage', (result: EVMResult) => {
    const run = runs.get(evm);
    if (!run) return;
    run.open--;
    if (result.execResult.exceptionError) {
      run.ledger?.revert();
      run.numbers?.revert();
    } else {
      run.ledger?.commit();
      run.numbers?.commit();
    }
  });
}

export const isStaticFrame = (evm: EVMInterface): boolean => runs.get(evm)?.latest?.isStatic === true;

/** The caller of the running frame (for a DELEGATECALL, the caller of the frame that delegated). */
export const frameCaller = (evm: EVMInterface): Uint8Array | undefined => runs.get(evm)?.latest?.caller.bytes;

/**
 * The address a running DELEGATECALL frame executes for (the contract that delegated); undefined for any other
 * call.
 */
export const delegatingContract = (evm: EVMInterface): Uint8Array | undefined => {
  const latest = runs.get(evm)?.latest;
  return latest?.delegatecall ? latest.to?.bytes : undefined;
};

/** The value the running frame carries. */
export const frameValue = (evm: EVMInterface): bigint => runs.get(evm)?.latest?.value ?? 0n;

/** The sender of the run's top-level frame. */
export const runOrigin = (evm: EVMInterface): Uint8Array | undefined => runs.get(evm)?.origin;

/** The token ledger of the run, made on first use with as many open checkpoints as there are open frames. */
export function tokenLedgerOf(evm: EVMInterface, reader: LedgerReader): TokenLedger {
  const run = runs.get(evm);
  if (!run) return new TokenLedger(reader);
  if (!run.ledger) {
    run.ledger = new TokenLedger(reader);
    for (let i = 0; i < run.open; i++) run.ledger.checkpoint();
  }
  return run.ledger;
}

/**
 * The entity numbers of the run (the next one a created token takes), made on first use with a checkpoint per open
 * frame, so a reverted frame gives its numbers back.
 */
export async function entityNumbersOf(evm: EVMInterface, reader: LedgerReader): Promise<EntityNumbers> {
  const run = runs.get(evm);
  const first = await ledgerReads(reader).firstEntityNumber();
  if (!run) return new EntityNumbers(first);
  if (!run.numbers) {
    run.numbers = new EntityNumbers(first);
    for (let i = 0; i < run.open; i++) run.numbers.checkpoint();
  }
  return run.numbers;
}
