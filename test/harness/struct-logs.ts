import type { Anvil } from './anvil.ts';

/** One entry of the route's opcode trace (`stack`, `memory` and `storage` switched on). */
export interface RouteStep {
  readonly pc: number;
  readonly op: string;
  readonly gas: number;
  readonly gas_cost: number;
  readonly depth: number;
  readonly stack: string[];
  readonly memory: string[];
  readonly storage: Record<string, string>;
}

/** One of geth's struct logs, as anvil's `debug_traceCall` writes them. */
interface StructLog {
  readonly pc: number;
  readonly op: string;
  readonly gas: number;
  readonly gasCost: number;
  readonly depth: number;
  readonly stack: string[];
  readonly memory: string[];
  readonly storage?: Record<string, string>;
}

export interface StructLogTrace {
  readonly failed: boolean;
  readonly gas: number;
  readonly returnValue: string;
  readonly structLogs: StructLog[];
}

/** anvil's struct logs of a call on its current state, with memory and storage. */
export function anvilTrace(anvil: Anvil, call: Record<string, unknown>): Promise<StructLogTrace> {
  return anvil.rpc<StructLogTrace>('debug_traceCall', [call, 'latest', { enableMemory: true, disableStorage: false }]);
}

const words = (values: readonly string[]) =>
  values.map((value) => BigInt(value.startsWith('0x') ? value : `0x${value}`));
const slots = (storage: Record<string, string> = {}) =>
  Object.fromEntries(Object.entries(storage).map(([slot, value]) => [BigInt(slot).toString(), BigInt(value)]));

/**
 * What both traces show of a step: storage only where geth's struct logs show it, on SLOAD and SSTORE. A step that
 * runs out of gas costs what it needed in Besu (the reference's EVM) and here, the gas left in anvil: both are
 * compared as "all of it".
 */
function comparable(step: Omit<StructLog, 'gasCost'>, gasCost: number) {
  return {
    pc: step.pc,
    op: step.op,
    gas: step.gas,
    gasCost: gasCost >= step.gas && gasCost > 0 ? 'all the gas left' : gasCost,
    depth: step.depth,
    stack: words(step.stack),
    memory: words(step.memory),
    ...(step.op === 'SLOAD' || step.op === 'SSTORE' ? { storage: slots(step.storage) } : {}),
  };
}

const text = (value: unknown) => JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? v.toString(16) : v));

/** The first step where the route's trace and anvil's differ, described; undefined when they agree step by step. */
export function firstStepDifference(ours: readonly RouteStep[], theirs: readonly StructLog[]): string | undefined {
  for (let i = 0; i < Math.max(ours.length, theirs.length); i++) {
    const mine = ours[i];
    const other = theirs[i];
    if (!mine || !other) return `${ours.length} steps, anvil ${theirs.length}`;
    const [a, b] = [text(comparable(mine, mine.gas_cost)), text(comparable(other, other.gasCost))];
    if (a !== b) return `step ${i}: ${a} != anvil ${b}`;
  }
  return undefined;
}
