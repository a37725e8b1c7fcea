import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { word } from '../../../../simulator/evm/abi.ts';
import { ANVIL_SENDER, type Anvil, startAnvil } from '../../../../test/harness/anvil.ts';
import { GENESIS, hexOf, SECOND } from '../../../../test/harness/evm-session.ts';
import { insertRecordFile } from '../../../../test/harness/factories-blocks.ts';
import { insertContract } from '../../../../test/harness/factories-contracts.ts';
import { insertEntity } from '../../../../test/harness/factories-tokens.ts';
import { type CompiledContract, compileContracts, encodeCall } from '../../../../test/harness/solidity.ts';
import { registerWorkerSuite } from '../../../../test/harness/worker-suite.ts';
import { longZeroAddress } from '../../../evm/addresses.ts';
import { twoBlocks } from './testing/blocks.ts';

const FACTORY = 1001n;
const SHAPES = 1002n;
const compiled = (file: string, name: string): CompiledContract => {
  const found = compileContracts(file)[name];
  if (!found) throw new Error(`no contract ${name}`);
  return found;
};
const factory = compiled('Factory.sol', 'Factory');
const shapes = compiled('GasShapes.sol', 'GasShapes');
const address = (num: bigint) => `0x${hexOf(longZeroAddress(num))}`;

const { worker } = registerWorkerSuite({
  async seed({ sql }) {
    for (const block of twoBlocks(GENESIS, SECOND)) await insertRecordFile(sql, block);
    await insertEntity(sql, 2n, GENESIS, { balance: 5_000_000_000_000_000_000n });
    await insertContract(
      sql,
      { id: FACTORY, created_timestamp: GENESIS },
      { runtime_bytecode: Buffer.from(factory.runtime) },
    );
    await insertContract(
      sql,
      { id: SHAPES, created_timestamp: GENESIS },
      { runtime_bytecode: Buffer.from(shapes.runtime) },
    );
  },
});

let anvil: Anvil;
beforeAll(async () => {
  anvil = await startAnvil();
  for (const [num, contract] of [
    [FACTORY, factory],
    [SHAPES, shapes],
  ] as const) {
    await anvil.rpc('anvil_setCode', [address(num), `0x${hexOf(contract.runtime)}`]);
  }
});
afterAll(() => anvil?.close());

let clientNumber = 0;
async function post(body: Record<string, unknown>) {
  const response = await fetch(`${worker.baseUrl}/api/v1/contracts/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': `198.51.100.${++clientNumber}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { result?: string } };
}

/**
 * The smallest gas at which anvil runs the call as it does with 15,000,000 (succeeding, with the same output), found
 * by bisection over its eth_call; anvil's own estimate asks only for success.
 */
async function anvilSmallest(to: string, data: string): Promise<bigint> {
  const atGas = (gas: bigint) => anvil.call({ from: ANVIL_SENDER, to, data, gas: `0x${gas.toString(16)}` });
  const expected = await atGas(15_000_000n);
  let low = 20_999n;
  let high = 15_000_000n;
  while (low + 1n < high) {
    const middle = (low + high) / 2n;
    const outcome = await atGas(middle);
    if (outcome.ok && outcome.data === expected.data) high = middle;
    else low = middle;
  }
  return high;
}

const cases: [string, string, Uint8Array][] = [
  ['a CREATE', address(FACTORY), encodeCall(factory, 'make(uint256)', [word(5n)])],
  ['two CREATEs', address(FACTORY), encodeCall(factory, 'makeTwo(uint256)', [word(5n)])],
  ['a CREATE2', address(FACTORY), encodeCall(factory, 'make2(bytes32,uint256)', [word(1n), word(9n)])],
  ['a create and a call to it', address(FACTORY), encodeCall(factory, 'makeAndRead(uint256)', [word(7n)])],
  ['a staticcall to a function that writes', address(SHAPES), encodeCall(shapes, 'staticWrite()')],
  ['a precompile given bad input', address(SHAPES), encodeCall(shapes, 'badPrecompile()')],
  ['a call forwarding a fixed amount of gas', address(SHAPES), encodeCall(shapes, 'forwardFixed(uint256)', [word(3n)])],
];

describe('POST /api/v1/contracts/call estimates', () => {
  it.each(cases)(
    'estimates %s within 100 to 110 percent of the smallest gas that works in anvil',
    async (_, to, bytes) => {
      const data = `0x${hexOf(bytes)}`;
      const [response, smallest] = await Promise.all([post({ to, data, estimate: true }), anvilSmallest(to, data)]);
      expect(response.status).toBe(200);
      const estimate = BigInt(response.body.result ?? '');
      expect(estimate).toBeGreaterThanOrEqual(smallest);
      expect(estimate).toBeLessThanOrEqual((smallest * 110n) / 100n);
    },
  );

  it('answers a call that creates a contract with its output, and one whose constructor reverts with its revert data', async () => {
    const made = await post({
      to: address(FACTORY),
      data: `0x${hexOf(encodeCall(factory, 'make(uint256)', [word(5n)]))}`,
    });
    expect(made).toEqual({
      status: 200,
      body: { result: `0x${hexOf(longZeroAddress(SHAPES + 1n)).padStart(64, '0')}` },
    });
    const reverted = await post({
      to: address(FACTORY),
      data: `0x${hexOf(encodeCall(factory, 'make(uint256)', [word(13n)]))}`,
      estimate: true,
    });
    expect(reverted.status).toBe(400);
    expect(reverted.body).toMatchObject({
      _status: { messages: [{ message: 'CONTRACT_REVERT_EXECUTED', detail: 'unlucky' }] },
    });
  });
});
