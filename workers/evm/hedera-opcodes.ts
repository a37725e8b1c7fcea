/**
 * Opcodes whose answers differ on Hedera. Each keeps the standard gas (the original dynamic gas handler) and
 * changes only what is pushed:
 * - ADDRESS, CALLER, ORIGIN: the canonical address (an entity's EVM address also when reached by long-zero);
 * - BALANCE: the real balance (no minimum), and 0 for a system account (0.0.1-0.0.750) named by long-zero;
 * - EXTCODESIZE 0 and EXTCODEHASH 0 for a system account;
 * - BLOCKHASH: any block up to the current one (not only the last 256), the first 32 bytes of its record file's
 *   hash; 0 for a later block or a number wider than 8 bytes.
 */

import type { Common } from '@ethereumjs/common';
import { type EVMOpts, getOpcodesForHF } from '@ethereumjs/evm';
import { Address, bigIntToAddressBytes, bytesToBigInt } from '@ethereumjs/util';
import { systemNumOf } from './addresses.ts';
import type { LedgerState } from './ledger-state.ts';

type CustomOpcode = NonNullable<EVMOpts['customOpcodes']>[number];
type AddOpcode = Extract<CustomOpcode, { logicFunction: unknown }>;
type RunState = Parameters<AddOpcode['logicFunction']>[0];

/** The highest entity num of a system account. */
const MAX_SYSTEM_NUM = 750n;
const MAX_INT64 = 2n ** 63n - 1n;

export interface OpcodeContext {
  /** The state the EVM runs on. */
  state(): LedgerState;
  /** The number of the block the call runs on. */
  blockNumber(): bigint;
  /** The first 32 bytes of a block's hash, as a number; undefined when no such block is stored. */
  blockHash(number: bigint): Promise<bigint | undefined>;
}

const addressOf = (value: bigint): Address => new Address(bigIntToAddressBytes(value, false));

function isSystemAddress(value: bigint): boolean {
  const num = systemNumOf(bigIntToAddressBytes(value, false));
  return num !== undefined && num >= 1n && num <= MAX_SYSTEM_NUM;
}

export function hederaOpcodes(common: Common, context: OpcodeContext): CustomOpcode[] {
  const { opcodeMap } = getOpcodesForHF(common);
  const standard = (opcode: number) => {
    const entry = opcodeMap[opcode];
    if (!entry) throw new Error(`opcode 0x${opcode.toString(16)} is not in the hardfork`);
    return entry;
  };
  const replace = (opcode: number, logicFunction: (runState: RunState) => Promise<void>): AddOpcode => {
    const entry = standard(opcode);
    return {
      opcode,
      opcodeName: entry.opcodeInfo.name,
      baseFee: entry.opcodeInfo.fee,
      ...(entry.opcodeInfo.dynamicGas ? { gasFunction: entry.gasHandler } : {}),
      logicFunction,
    };
  };
  const canonical = async (value: bigint): Promise<bigint> =>
    bytesToBigInt((await context.state().canonical(addressOf(value))).bytes);
  /** For a system address: pops it and pushes 0; otherwise runs the standard handler. */
  const zeroForSystem = (opcode: number) => {
    const handler = standard(opcode).opHandler;
    return replace(opcode, async (runState) => {
      if (isSystemAddress(runState.stack.peek(1)[0] ?? 0n)) {
        runState.stack.pop();
        runState.stack.push(0n);
        return;
      }
      await handler(runState, common);
    });
  };

  return [
    replace(0x30, async (runState) => {
      runState.stack.push(await canonical(bytesToBigInt(runState.interpreter.getAddress().bytes)));
    }),
    replace(0x31, async (runState) => {
      const value = runState.stack.pop();
      runState.stack.push(isSystemAddress(value) ? 0n : await context.state().realBalance(addressOf(value)));
    }),
    replace(0x32, async (runState) => {
      runState.stack.push(await canonical(runState.interpreter.getTxOrigin()));
    }),
    replace(0x33, async (runState) => {
      runState.stack.push(await canonical(runState.interpreter.getCaller()));
    }),
    zeroForSystem(0x3b),
    zeroForSystem(0x3f),
    replace(0x40, async (runState) => {
      const number = runState.stack.pop();
      const known = number <= context.blockNumber() && number <= MAX_INT64;
      runState.stack.push(known ? ((await context.blockHash(number)) ?? 0n) : 0n);
    }),
  ];
}
