import type { InterpreterStep } from '@ethereumjs/evm';
import { SimpleStateManager } from '@ethereumjs/statemanager';
import { Account, bigIntToBytes, createZeroAddress, setLengthLeft } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { OpcodeLog, type TraceOptions } from './opcode-log.ts';

/** The slots 2 and 5 of the contract these steps run in hold this. */
const STORED = 0x2an;
const CONTRACT = createZeroAddress();
const state = new SimpleStateManager();
await state.putAccount(CONTRACT, new Account());
for (const slot of [2n, 5n]) {
  await state.putStorage(CONTRACT, setLengthLeft(bigIntToBytes(slot), 32), Uint8Array.of(Number(STORED)));
}

/** A step as the interpreter reports it, with the fields the log reads. */
function step(code: number, name: string, stack: bigint[], memoryWords = 0, depth = 0): InterpreterStep {
  return {
    stateManager: state,
    address: CONTRACT,
    codeAddress: CONTRACT,
    account: new Account(),
    gasRefund: 0n,
    memoryWordCount: BigInt(memoryWords),
    pc: 17,
    gasLeft: 90_000n,
    depth,
    stack,
    memory: new Uint8Array(memoryWords * 32).fill(0xab),
    opcode: { name, code, fee: 3, dynamicFee: code === 0x55 ? 22_100n : 3n, isAsync: false },
    ...(code === 0xfd ? { error: Uint8Array.of(0x4e, 0x48) } : {}),
  } as InterpreterStep;
}

const ALL: TraceOptions = { stack: true, memory: true, storage: true };

describe('OpcodeLog', () => {
  it.each<[string, TraceOptions]>([
    ['everything', ALL],
    ['nothing', { stack: false, memory: false, storage: false }],
    ['the stack only', { stack: true, memory: false, storage: false }],
  ])('sizes each entry exactly as long as it is written, with %s', async (_name, options) => {
    const sizing = new OpcodeLog(options);
    const writing = new OpcodeLog(options);
    const steps = [
      step(0x60, 'PUSH1', []),
      step(0x55, 'SSTORE', [7n, 1n], 2),
      step(0x54, 'SLOAD', [2n], 2),
      step(0x60, 'PUSH1', [9n], 3),
      step(0xfd, 'REVERT', [0n, 2n], 3),
    ];
    for (const each of steps) {
      await sizing.observe(each);
      await writing.observe(each);
      expect(sizing.entryLength(each)).toBe(writing.entry(each).length);
    }
  });

  it('keeps every slot read or written so far, a written value replacing the read one, sorted by slot', async () => {
    const log = new OpcodeLog(ALL);
    const steps = [step(0x54, 'SLOAD', [5n]), step(0x60, 'PUSH1', [4n]), step(0x55, 'SSTORE', [8n, 2n])];
    steps.push(step(0x55, 'SSTORE', [9n, 5n]), step(0x00, 'STOP', []));
    let last = '';
    for (const each of steps) {
      await log.observe(each);
      last = log.entry(each);
    }
    const word = (value: bigint) => `0x${value.toString(16).padStart(64, '0')}`;
    expect(JSON.parse(last).storage).toEqual({ [word(2n)]: word(8n), [word(5n)]: word(9n) });
    expect(Object.keys(JSON.parse(last).storage)).toEqual([word(2n), word(5n)]);
  });

  it('shows on an SLOAD entry the slot it reads, and on an SSTORE entry the value it writes', async () => {
    const log = new OpcodeLog(ALL);
    const word = (value: bigint) => `0x${value.toString(16).padStart(64, '0')}`;
    const load = step(0x54, 'SLOAD', [5n]);
    await log.observe(load);
    expect(JSON.parse(log.entry(load)).storage).toEqual({ [word(5n)]: word(STORED) });
    const store = step(0x55, 'SSTORE', [7n, 5n]);
    await log.observe(store);
    expect(JSON.parse(log.entry(store)).storage).toEqual({ [word(5n)]: word(7n) });
  });

  it('writes geth-like values: pc and gas before the step, depth from 1, the revert data as reason', async () => {
    const log = new OpcodeLog(ALL);
    const revert = step(0xfd, 'REVERT', [0n, 2n], 1, 1);
    await log.observe(revert);
    expect(JSON.parse(log.entry(revert))).toEqual({
      depth: 2,
      gas: 90_000,
      gas_cost: 3,
      memory: [`0x${'ab'.repeat(32)}`],
      op: 'REVERT',
      pc: 17,
      reason: '0x4e48',
      stack: [`0x${'0'.repeat(64)}`, `0x${'2'.padStart(64, '0')}`],
      storage: {},
    });
  });
});
