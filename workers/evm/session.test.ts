import { describe, expect, it } from 'vitest';
import { artifact, callData, fromHex, word } from '../../simulator/evm/abi.ts';
import {
  callOf,
  countingClient,
  GENESIS,
  hexOf,
  insertBlocks,
  ledgerBlock,
  SECOND,
  uintOf,
  useEvmLedger,
} from '../../test/harness/evm-session.ts';
import { insertContract } from '../../test/harness/factories-contracts.ts';
import { insertContractSlot, insertSlotChange } from '../../test/harness/factories-evm.ts';
import { insertEntity } from '../../test/harness/factories-tokens.ts';
import { longZeroAddress } from './addresses.ts';
import { createEvmCaches } from './caches.ts';

const TREASURY = 2n;
const COUNTER = 1001n;
const STOPPER = 1002n;
const DELEGATOR = 1003n;
const POOR = 1004n;
const CLEARER = 1005n;
const counter = artifact('Counter');

const latest = ledgerBlock(20n, GENESIS + 100n * SECOND);

const ledger = useEvmLedger(async (sql) => {
  await insertBlocks(sql, [latest]);
  await insertEntity(sql, TREASURY, GENESIS, { balance: 5_000_000_000_000_000_000n });
  await insertContract(
    sql,
    { id: COUNTER, created_timestamp: GENESIS },
    { runtime_bytecode: fromHex(counter.runtime) },
  );
  await insertContractSlot(sql, { contract_id: COUNTER, slot: 0n, value: 7n, modified_timestamp: GENESIS });
  // A contract whose code is a lone STOP: every call, whatever its selector, succeeds with no output.
  await insertContract(
    sql,
    { id: STOPPER, created_timestamp: GENESIS },
    { runtime_bytecode: Buffer.from('00', 'hex') },
  );
  await insertEntity(sql, DELEGATOR, GENESIS, {
    balance: 10n,
    delegation_address: Buffer.from(longZeroAddress(COUNTER)),
  });
  await insertContractSlot(sql, { contract_id: DELEGATOR, slot: 0n, value: 3n, modified_timestamp: GENESIS });
  for (const [read, written, at] of [
    [0n, 2n, 30n],
    [2n, 3n, 50n],
  ] as const) {
    await insertSlotChange(sql, {
      contract_id: DELEGATOR,
      slot: 0n,
      value_read: read,
      value_written: written,
      consensus_timestamp: GENESIS + at * SECOND,
    });
  }
  await insertEntity(sql, POOR, GENESIS, { balance: 100n });
  await insertContract(sql, { id: CLEARER, created_timestamp: GENESIS }, { runtime_bytecode: fromHex('6000600055') });
  await insertContractSlot(sql, { contract_id: CLEARER, slot: 0n, value: 1n, modified_timestamp: GENESIS });
});

const session = () => ledger.session(latest);

const count = callData(counter, 'count()', []);
const increment = (step: bigint) => callData(counter, 'increment(uint256)', [word(step)]);

describe('openSession(...).run', () => {
  it('reads a contract slot from contract_state', async () => {
    const outcome = await session().run(callOf(longZeroAddress(COUNTER), count));
    expect(outcome.ok).toBe(true);
    expect(uintOf(outcome.output)).toBe(7n);
  });

  it('writes to an overlay only: each run of a session starts from the ledger', async () => {
    const calls = session();
    const first = await calls.run(callOf(longZeroAddress(COUNTER), increment(5n)));
    const second = await calls.run(callOf(longZeroAddress(COUNTER), increment(5n)));
    expect([uintOf(first.output), uintOf(second.output)]).toEqual([12n, 12n]);
    expect(first.gasUsed).toBe(second.gasUsed);
  });

  it('answers a revert with CONTRACT_REVERT_EXECUTED and the Error(string) data as output', async () => {
    const outcome = await session().run(callOf(longZeroAddress(COUNTER), increment(0n)));
    expect(outcome).toMatchObject({ ok: false, status: 'CONTRACT_REVERT_EXECUTED' });
    expect(hexOf(outcome.output)).toMatch(/^08c379a0/);
    expect(Buffer.from(outcome.output).toString('utf8')).toContain('step out of range');
  });

  it('answers an unknown selector without a fallback with CONTRACT_REVERT_EXECUTED and no data', async () => {
    const outcome = await session().run(callOf(longZeroAddress(COUNTER), fromHex('deadbeef')));
    expect(outcome).toMatchObject({ ok: false, status: 'CONTRACT_REVERT_EXECUTED' });
    expect(outcome.output).toHaveLength(0);
  });

  it('answers an unknown selector of a contract that accepts any call with 0x', async () => {
    const outcome = await session().run(callOf(longZeroAddress(STOPPER), fromHex('deadbeef')));
    expect(outcome).toMatchObject({ ok: true });
    expect(outcome.output).toHaveLength(0);
  });

  it('answers an invalid opcode with CONTRACT_EXECUTION_EXCEPTION', async () => {
    const initcode = fromHex('fe');
    const outcome = await session().run(callOf(undefined, initcode));
    expect(outcome).toMatchObject({ ok: false, status: 'CONTRACT_EXECUTION_EXCEPTION', gasUsed: 15_000_000n });
  });

  it('answers a create with the runtime code the constructor returns', async () => {
    const initcode = new Uint8Array([...fromHex(counter.initcode), ...word(3n)]);
    const outcome = await session().run(callOf(undefined, initcode));
    expect(outcome.ok).toBe(true);
    expect(hexOf(outcome.output)).toBe(counter.runtime);
  });

  it('succeeds with 0x for a call without data to an address no entity has', async () => {
    const outcome = await session().run(callOf(fromHex('00000000000000000000000000000000000f4240')));
    expect(outcome).toMatchObject({ ok: true, gasUsed: 21_000n });
    expect(outcome.output).toHaveLength(0);
  });

  it('answers a call with data to an address no entity has with INVALID_CONTRACT_ID', async () => {
    const outcome = await session().run(callOf(fromHex('00000000000000000000000000000000000f4240'), count));
    expect(outcome).toMatchObject({ ok: false, status: 'INVALID_CONTRACT_ID' });
  });

  it('answers a negative value with CONTRACT_NEGATIVE_VALUE', async () => {
    const outcome = await session().run(callOf(longZeroAddress(COUNTER), count, { value: -1n }));
    expect(outcome).toMatchObject({ ok: false, status: 'CONTRACT_NEGATIVE_VALUE' });
  });

  it('answers call data beyond 131072 bytes with TRANSACTION_OVERSIZE', async () => {
    const outcome = await session().run(callOf(longZeroAddress(STOPPER), new Uint8Array(131_073)));
    expect(outcome).toMatchObject({ ok: false, status: 'TRANSACTION_OVERSIZE' });
  });

  it('runs the delegate of an account with a delegation_address (EIP-7702) on the account', async () => {
    const outcome = await session().run(callOf(longZeroAddress(DELEGATOR), count));
    // The delegate's code, on the account's own storage: its 3, not the delegate's 7.
    expect(outcome.ok).toBe(true);
    expect(uintOf(outcome.output)).toBe(3n);
  });

  it('reads the storage of a delegating account at a past block too', async () => {
    const before = ledger.session(ledgerBlock(10n, GENESIS + 47n * SECOND, { historical: true }));
    const after = ledger.session(ledgerBlock(11n, GENESIS + 49n * SECOND, { historical: true }));
    const [old, changed] = await Promise.all([
      before.run(callOf(longZeroAddress(DELEGATOR), count)),
      after.run(callOf(longZeroAddress(DELEGATOR), count)),
    ]);
    expect([uintOf(old.output), uintOf(changed.output)]).toEqual([2n, 3n]);
  });

  it('lets an account below the minimum balance send more hbar than it has', async () => {
    const outcome = await session().run(
      callOf(longZeroAddress(STOPPER), new Uint8Array(), { from: longZeroAddress(POOR), value: 1_000_000n }),
    );
    expect(outcome.ok).toBe(true);
  });
});

describe('caches', () => {
  /** The test database's client as a request sees it: its own wrapper, counting statements. */
  const wrapper = () => countingClient(ledger.db);

  it('lets the sessions of an isolate share bytecode and latest reads through one EvmCaches', async () => {
    const caches = createEvmCaches();
    const first = wrapper();
    const second = wrapper();
    const call = callOf(longZeroAddress(COUNTER), count);
    await ledger.session(latest, { db: first, caches }).run(call);
    const outcome = await ledger.session(latest, { db: second, caches }).run(call);
    expect(first.statements).toBeGreaterThan(0);
    expect(second.statements).toBe(0);
    expect(uintOf(outcome.output)).toBe(7n);
  });

  it('reads again for a session with caches of its own', async () => {
    const db = wrapper();
    await ledger.session(latest, { db, caches: createEvmCaches() }).run(callOf(longZeroAddress(COUNTER), count));
    expect(db.statements).toBeGreaterThan(0);
  });
});

describe('gas', () => {
  it('counts the intrinsic gas: 21,000 plus 4 per zero and 16 per other byte of data', async () => {
    const outcome = await session().run(callOf(longZeroAddress(STOPPER), fromHex('00ff00ff')));
    expect(outcome).toMatchObject({ ok: true, gasUsed: 21_000n + 2n * 4n + 2n * 16n });
  });

  it('answers gas below the intrinsic gas with INSUFFICIENT_GAS', async () => {
    const outcome = await session().run(callOf(longZeroAddress(STOPPER), fromHex('ff'), { gas: 21_015n }));
    expect(outcome).toMatchObject({ ok: false, status: 'INSUFFICIENT_GAS' });
  });

  it('reports the least gas a call succeeds with: one less runs out with INSUFFICIENT_GAS', async () => {
    const calls = session();
    const { gasUsed } = await calls.run(callOf(longZeroAddress(COUNTER), count));
    expect(await calls.run(callOf(longZeroAddress(COUNTER), count, { gas: gasUsed }))).toMatchObject({ ok: true });
    expect(await calls.run(callOf(longZeroAddress(COUNTER), count, { gas: gasUsed - 1n }))).toMatchObject({
      ok: false,
      status: 'INSUFFICIENT_GAS',
    });
  });

  it('subtracts the refund of clearing a slot (EIP-3529: 4,800, at most a fifth of the gas used)', async () => {
    // PUSH1 0 PUSH1 0 SSTORE: 21,000 + 3 + 3 + 2,100 (cold slot) + 2,900 (reset) = 26,006, less 4,800.
    const outcome = await session().run(callOf(longZeroAddress(CLEARER)));
    expect(outcome).toMatchObject({ ok: true, gasUsed: 26_006n - 4_800n });
  });
});
