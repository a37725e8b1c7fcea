/**
 * Opcode traces step by step against an independent EVM: anvil's `debug_traceCall` (geth's struct logs) of the same
 * call on the same code and storage. Hedera does not differ for these calls (no system contracts, no creates).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifact, callData, word } from '../../../../simulator/evm/abi.ts';
import { type Anvil, startAnvil } from '../../../../test/harness/anvil.ts';
import { GENESIS, SECOND } from '../../../../test/harness/evm-session.ts';
import { insertTransaction } from '../../../../test/harness/factories.ts';
import { insertRecordFile } from '../../../../test/harness/factories-blocks.ts';
import { insertContract, insertContractResult } from '../../../../test/harness/factories-contracts.ts';
import { insertContractSlot, insertSlotChange } from '../../../../test/harness/factories-evm.ts';
import { insertEntity } from '../../../../test/harness/factories-tokens.ts';
import { compileContracts, encodeCall } from '../../../../test/harness/solidity.ts';
import { anvilTrace, firstStepDifference, type RouteStep } from '../../../../test/harness/struct-logs.ts';
import { registerWorkerSuite } from '../../../../test/harness/worker-suite.ts';
import { twoBlocks } from '../call/testing/blocks.ts';

const COUNTER = 1001n;
const SENDER = 1002n;
const SHAPES = 1003n;
const shapes = compileContracts('GasShapes.sol').GasShapes;
if (!shapes) throw new Error('no contract GasShapes');
const GAS = 100_000;
const counter = artifact('Counter');
const INCREMENTED = GENESIS + 101n * SECOND;
const REVERTED = INCREMENTED + 1000n;
const calls = [
  {
    name: 'a call that reads and writes storage',
    at: INCREMENTED,
    contract: COUNTER,
    data: callData(counter, 'increment(uint256)', [word(5n)]),
  },
  {
    name: 'a call that reverts',
    at: REVERTED,
    contract: COUNTER,
    data: callData(counter, 'increment(uint256)', [word(0n)]),
  },
  {
    name: 'a call forwarding fixed gas to an inner CALL',
    at: REVERTED + 1000n,
    contract: SHAPES,
    data: encodeCall(shapes, 'forwardFixed(uint256)', [word(3n)]),
  },
  {
    name: 'a STATICCALL to a function that writes',
    at: REVERTED + 2000n,
    contract: SHAPES,
    data: encodeCall(shapes, 'staticWrite()'),
  },
  {
    name: 'a precompile given bad input',
    at: REVERTED + 3000n,
    contract: SHAPES,
    data: encodeCall(shapes, 'badPrecompile()'),
  },
];

const address = (num: bigint) => `0x${num.toString(16).padStart(40, '0')}`;
const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;
const validStart = (timestamp: bigint) => timestamp - 3n * SECOND;
const idOf = (timestamp: bigint) => {
  const start = validStart(timestamp);
  return `0.0.${SENDER}-${start / SECOND}-${(start % SECOND).toString().padStart(9, '0')}`;
};

const { worker } = registerWorkerSuite({
  async seed({ sql }) {
    for (const block of twoBlocks(GENESIS, SECOND)) await insertRecordFile(sql, block);
    await insertEntity(sql, 2n, GENESIS, { balance: 5_000_000_000_000_000_000n });
    await insertEntity(sql, SENDER, GENESIS, { balance: 10_000_000_000n });
    await insertContract(
      sql,
      { id: COUNTER, created_timestamp: GENESIS + 10n * SECOND },
      { runtime_bytecode: Buffer.from(counter.runtime, 'hex') },
    );
    await insertContractSlot(sql, {
      contract_id: COUNTER,
      slot: 0n,
      value: 7n,
      modified_timestamp: GENESIS + 50n * SECOND,
    });
    await insertSlotChange(sql, {
      contract_id: COUNTER,
      slot: 0n,
      value_read: 0n,
      value_written: 7n,
      consensus_timestamp: GENESIS + 50n * SECOND,
    });
    await insertContract(
      sql,
      { id: SHAPES, created_timestamp: GENESIS },
      { runtime_bytecode: Buffer.from(shapes.runtime) },
    );
    for (const { at, contract, data } of calls) {
      await insertTransaction(sql, {
        consensus_timestamp: at,
        payer_account_id: SENDER,
        valid_start_ns: validStart(at),
        type: 7,
      });
      await insertContractResult(sql, {
        consensus_timestamp: at,
        contract_id: contract,
        payer_account_id: SENDER,
        function_parameters: Buffer.from(data),
        gas_limit: GAS,
      });
    }
  },
});

let anvil: Anvil;
beforeAll(async () => {
  anvil = await startAnvil();
  await anvil.rpc('anvil_setCode', [address(COUNTER), `0x${counter.runtime}`]);
  await anvil.rpc('anvil_setStorageAt', [address(COUNTER), '0x0', `0x${'7'.padStart(64, '0')}`]);
  await anvil.rpc('anvil_setCode', [address(SHAPES), hex(shapes.runtime)]);
  await worker.setState({
    config: {
      edge: { rateLimit: { enabled: false } },
      web3: { opcode: { tracer: { enabled: true } }, throttle: { opcodeRequestsPerSecond: 1000 } },
    },
  });
});
afterAll(() => anvil?.close());

describe('an opcode trace, step by step against anvil', () => {
  it.each(calls)('equals anvil’s struct logs for $name', async ({ at, contract, data }) => {
    const response = await fetch(
      `${worker.baseUrl}/api/v1/contracts/results/${idOf(at)}/opcodes?stack=true&memory=true&storage=true`,
      { headers: { 'accept-encoding': 'gzip' } },
    );
    expect(response.status).toBe(200);
    const ours = (await response.json()) as {
      failed: boolean;
      gas: number;
      opcodes: RouteStep[];
      return_value: string;
    };
    const theirs = await anvilTrace(anvil, {
      from: address(SENDER),
      to: address(contract),
      gas: `0x${GAS.toString(16)}`,
      data: hex(data),
    });
    expect(firstStepDifference(ours.opcodes, theirs.structLogs)).toBeUndefined();
    expect({ failed: ours.failed, gas: ours.gas }).toEqual({ failed: theirs.failed, gas: theirs.gas });
    // A failed transaction has no output on Hedera (its revert data is the REVERT entry's reason).
    expect(ours.return_value).toBe(theirs.failed ? '0x' : theirs.returnValue);
  });
});
