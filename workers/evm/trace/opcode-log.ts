/**
 * One JSON entry of an opcode trace per EVM step, as GET /api/v1/contracts/results/{id}/opcodes writes them:
 * `{"depth","gas","gas_cost","memory","op","pc","reason","stack","storage"}`, the order of the reference's generated
 * `Opcode` (its document's property order, docs/adr/0020). Values are geth-like
 * (docs/adr/0021-opcode-trace.md): `pc` and `gas` before the operation runs, `depth` 1 for the transaction's own
 * frame.
 */
import type { InterpreterStep } from '@ethereumjs/evm';
import { bigIntToBytes, bytesToBigInt, setLengthLeft } from '@ethereumjs/util';
import { hexOfBytes } from '../../../db/bytea.ts';

/** The route's `stack`, `memory` and `storage` switches. */
export interface TraceOptions {
  readonly stack: boolean;
  readonly memory: boolean;
  readonly storage: boolean;
}

const SLOAD = 0x54;
const SSTORE = 0x55;
const REVERT = 0xfd;
const STATICCALL = 0xfa;
/** `"0x"` and 64 hex digits, quoted: one word as JSON. */
const WORD_JSON_LENGTH = 68;

/** CALL, CALLCODE, DELEGATECALL, STATICCALL: the gas argument is on top of the stack. */
const CALL_FAMILY = new Set([0xf1, 0xf2, 0xf4, 0xfa]);

/**
 * The step's whole cost. @ethereumjs's fee of a call leaves out the gas it forwards; geth and Besu (the reference's
 * EVM) count it: the gas argument, at most all but a 64th of what is left after the call's own fee (EIP-150). The
 * stipend of a value transfer is the callee's, not the caller's cost.
 */
function gasCostOf(step: InterpreterStep): bigint {
  const fee = step.opcode.dynamicFee ?? BigInt(step.opcode.fee);
  const requested = step.stack[step.stack.length - 1];
  if (!CALL_FAMILY.has(step.opcode.code) || requested === undefined || fee > step.gasLeft) return fee;
  const available = step.gasLeft - fee;
  const forwardable = available - available / 64n;
  return fee + (requested < forwardable ? requested : forwardable);
}

const wordHex = (value: bigint) => `0x${value.toString(16).padStart(64, '0')}`;

/** `[…]` of `count` quoted words, as long as JSON.stringify makes it. */
const wordArrayLength = (count: number) => 2 + count * WORD_JSON_LENGTH + Math.max(0, count - 1);

function memoryWords(memory: Uint8Array): string[] {
  const hex = hexOfBytes(memory);
  const words: string[] = [];
  for (let offset = 0; offset < hex.length; offset += 64) words.push(`0x${hex.slice(offset, offset + 64)}`);
  return words;
}

/**
 * Builds the entries of one run. Storage is every slot read or written so far in the whole transaction, the step's
 * own included (an SLOAD shows the slot it reads, an SSTORE the value it writes, as geth's struct logs and the
 * reference's post-operation hook do), keyed by slot, a written value replacing a read one, sorted by slot as the
 * reference shows it.
 */
export class OpcodeLog {
  private readonly options: TraceOptions;
  private readonly storage = new Map<bigint, bigint>();
  /** Whether each open frame, by depth, is static: an SSTORE there fails and writes nothing. */
  private readonly staticFrames: boolean[] = [false];
  private previous: { readonly depth: number; readonly code: number } | undefined;

  constructor(options: TraceOptions) {
    this.options = options;
  }

  /**
   * Takes the step's storage effects; call it for every step, in order, and wait for what it returns before `entry`
   * or `entryLength`. An SLOAD's value is read from the state the step is about to read, which is the value it
   * loads; every other step is taken at once, without a promise.
   */
  observe(step: InterpreterStep): Promise<void> | undefined {
    const caller = this.previous;
    if (caller && step.depth > caller.depth) {
      this.staticFrames[step.depth] = caller.code === STATICCALL || this.staticFrames[caller.depth] === true;
    }
    this.previous = { depth: step.depth, code: step.opcode.code };
    const top = step.stack[step.stack.length - 1];
    if (top === undefined) return undefined;
    if (step.opcode.code === SLOAD && !this.storage.has(top)) {
      return step.stateManager.getStorage(step.address, setLengthLeft(bigIntToBytes(top), 32)).then((value) => {
        this.storage.set(top, value.length === 0 ? 0n : bytesToBigInt(value));
      });
    }
    const value = step.stack[step.stack.length - 2];
    if (step.opcode.code === SSTORE && value !== undefined && !this.staticFrames[step.depth]) {
      this.storage.set(top, value);
    }
    return undefined;
  }

  /** The step's entry as JSON. */
  entry(step: InterpreterStep): string {
    const { options } = this;
    const stack = options.stack ? step.stack.map(wordHex) : [];
    const memory = options.memory ? memoryWords(step.memory) : [];
    const storage: Record<string, string> = {};
    if (options.storage) {
      for (const slot of [...this.storage.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
        storage[wordHex(slot)] = wordHex(this.storage.get(slot) ?? 0n);
      }
    }
    return JSON.stringify({
      depth: step.depth + 1,
      gas: Number(step.gasLeft),
      gas_cost: Number(gasCostOf(step)),
      memory,
      op: step.opcode.name,
      pc: step.pc,
      reason: this.reasonOf(step),
      stack,
      storage,
    });
  }

  /** `entry(step).length`, without building the stack, memory and storage texts (for sizing a trace up front). */
  entryLength(step: InterpreterStep): number {
    const { options } = this;
    const skeleton = JSON.stringify({
      depth: step.depth + 1,
      gas: Number(step.gasLeft),
      gas_cost: Number(gasCostOf(step)),
      memory: [],
      op: step.opcode.name,
      pc: step.pc,
      reason: this.reasonOf(step),
      stack: [],
      storage: {},
    });
    const stackWords = options.stack ? step.stack.length : 0;
    const memoryWordCount = options.memory ? step.memory.length / 32 : 0;
    // Each slot is `"0x…":"0x…"`, joined by commas.
    const slots = options.storage ? this.storage.size : 0;
    const storageLength = slots === 0 ? 0 : slots * (2 * WORD_JSON_LENGTH + 1) + slots - 1;
    return skeleton.length + wordArrayLength(stackWords) - 2 + wordArrayLength(memoryWordCount) - 2 + storageLength;
  }

  private reasonOf(step: InterpreterStep): string | null {
    return step.opcode.code === REVERT && step.error ? `0x${hexOfBytes(step.error)}` : null;
  }
}
