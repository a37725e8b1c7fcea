import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { word } from '../../simulator/evm/abi.ts';
import { ANVIL_SENDER, type Anvil, startAnvil } from '../../test/harness/anvil.ts';
import { callOf, GENESIS, hexOf, insertBlocks, ledgerBlock, useEvmLedger } from '../../test/harness/evm-session.ts';
import { insertContract } from '../../test/harness/factories-contracts.ts';
import { insertEntity } from '../../test/harness/factories-tokens.ts';
import { type CompiledContract, compileContracts, create2Address, encodeCall } from '../../test/harness/solidity.ts';
import { longZeroAddress } from './addresses.ts';
import type { CallOutcome } from './types.ts';

const FACTORY = 1001n;
/** The highest entity of the ledger: the first contract a call creates takes the number after it. */
const HIGHEST = 1040n;
const contracts = compileContracts('Factory.sol');
const contract = (name: string): CompiledContract => {
  const found = contracts[name];
  if (!found) throw new Error(`no contract ${name}`);
  return found;
};
const factory = contract('Factory');
const child = contract('Child');
const factoryAddress = longZeroAddress(FACTORY);
const latest = ledgerBlock(3n, GENESIS);
const SALT = word(0x5a17n);

const ledger = useEvmLedger(async (sql) => {
  await insertBlocks(sql, [latest]);
  await insertEntity(sql, 2n, GENESIS, { balance: 10n ** 18n });
  await insertContract(
    sql,
    { id: FACTORY, created_timestamp: GENESIS },
    { runtime_bytecode: Buffer.from(factory.runtime) },
  );
  await insertEntity(sql, HIGHEST, GENESIS);
});

let anvil: Anvil;
beforeAll(async () => {
  anvil = await startAnvil();
  // The factory at the same address in both EVMs, so what depends on its address (CREATE2, msg.sender) agrees.
  await anvil.rpc('anvil_setCode', [`0x${hexOf(factoryAddress)}`, `0x${hexOf(factory.runtime)}`]);
});
afterAll(() => anvil?.close());

const call = (data: Uint8Array): Promise<CallOutcome> => ledger.session(latest).run(callOf(factoryAddress, data));
const onAnvil = (data: Uint8Array) =>
  anvil.call({ from: ANVIL_SENDER, to: `0x${hexOf(factoryAddress)}`, data: `0x${hexOf(data)}` });
const addressWord = (address: Uint8Array) => hexOf(address).padStart(64, '0');
const childInit = (value: bigint) => Buffer.concat([child.initcode, word(value)]);

describe('CREATE and CREATE2 in a call', () => {
  it('gives a CREATE the long-zero address of the next entity number', async () => {
    const outcome = await call(encodeCall(factory, 'make(uint256)', [word(5n)]));
    expect(outcome.ok).toBe(true);
    expect(hexOf(outcome.output)).toBe(addressWord(longZeroAddress(HIGHEST + 1n)));
  });

  it('numbers the creates of one call one after another', async () => {
    const outcome = await call(encodeCall(factory, 'makeTwo(uint256)', [word(5n)]));
    expect(hexOf(outcome.output)).toBe(
      addressWord(longZeroAddress(HIGHEST + 1n)) + addressWord(longZeroAddress(HIGHEST + 2n)),
    );
  });

  it('runs the constructor: the new contract answers with what it stored, as in anvil', async () => {
    const data = encodeCall(factory, 'makeAndRead(uint256)', [word(7n)]);
    const [outcome, independent] = await Promise.all([call(data), onAnvil(data)]);
    expect(independent.ok).toBe(true);
    expect(`0x${hexOf(outcome.output)}`).toBe(independent.data);
    expect(independent.data).toBe(`0x${hexOf(word(7n))}${addressWord(factoryAddress)}`);
  });

  it('gives a CREATE2 the EIP-1014 address, as anvil does', async () => {
    const data = encodeCall(factory, 'make2(bytes32,uint256)', [SALT, word(9n)]);
    const [outcome, independent] = await Promise.all([call(data), onAnvil(data)]);
    const expected = addressWord(create2Address(factoryAddress, SALT, childInit(9n)));
    expect(hexOf(outcome.output)).toBe(expected);
    expect(independent.data).toBe(`0x${expected}`);
  });

  it('fails a CREATE2 on the address of an earlier one: the call reverts with no data, as in anvil', async () => {
    const data = encodeCall(factory, 'make2Twice(bytes32,uint256)', [SALT, word(9n)]);
    const [outcome, independent] = await Promise.all([call(data), onAnvil(data)]);
    expect(independent).toEqual({ ok: false, data: '0x' });
    expect(outcome).toMatchObject({ ok: false, status: 'CONTRACT_REVERT_EXECUTED', output: new Uint8Array() });
  });

  it('returns a reverting constructor revert data, as anvil does', async () => {
    const data = encodeCall(factory, 'make(uint256)', [word(13n)]);
    const [outcome, independent] = await Promise.all([call(data), onAnvil(data)]);
    expect(outcome.ok).toBe(false);
    expect(independent.ok).toBe(false);
    expect(`0x${hexOf(outcome.output)}`).toBe(independent.data);
    expect(Buffer.from(outcome.output).includes(Buffer.from('unlucky'))).toBe(true);
  });

  it('gives a CREATE2 an entity number too: a CREATE after it takes the next one', async () => {
    const outcome = await call(encodeCall(factory, 'make2ThenMake(bytes32,uint256)', [SALT, word(3n)]));
    expect(hexOf(outcome.output)).toBe(
      addressWord(create2Address(factoryAddress, SALT, childInit(3n))) + addressWord(longZeroAddress(HIGHEST + 2n)),
    );
  });

  it('gives the number of a failed create to the next one', async () => {
    const outcome = await call(encodeCall(factory, 'tryMakeThenMake(uint256)', [word(13n)]));
    expect(hexOf(outcome.output)).toBe(hexOf(word(0n)) + addressWord(longZeroAddress(HIGHEST + 1n)));
  });

  it('uses the gas anvil uses for a CREATE2 and for a create and a call to the new contract', async () => {
    for (const data of [
      encodeCall(factory, 'make2(bytes32,uint256)', [word(0x77n), word(9n)]),
      encodeCall(factory, 'makeAndRead(uint256)', [word(7n)]),
    ]) {
      const outcome = await call(data);
      const receipt = await anvil.transact({
        from: ANVIL_SENDER,
        to: `0x${hexOf(factoryAddress)}`,
        data: `0x${hexOf(data)}`,
        gas: '0xe4e1c0',
      });
      expect(outcome.gasUsed).toBe(BigInt(receipt.gasUsed));
    }
  });
});
