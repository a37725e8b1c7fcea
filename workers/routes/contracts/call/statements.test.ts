/**
 * SQL statements per contract call, counted at the SQL-over-HTTP proxy the Worker reads the database through (the
 * Worker in workerd, calls through its executor objects). A call repeated at `latest` within the shared caches'
 * lifetimes (the block 500 ms, entities and tokens 1 s, storage 2 s) runs none; a historical call's reads are its
 * session's own, so repeating one runs the same statements again.
 */
import { describe, expect, it } from 'vitest';
import { artifact, callData, word } from '../../../../simulator/evm/abi.ts';
import { GENESIS } from '../../../../test/harness/evm-session.ts';
import { insertContract } from '../../../../test/harness/factories-contracts.ts';
import { insertContractSlot } from '../../../../test/harness/factories-evm.ts';
import { FUNGIBLE, HOLDER, NFT, past, seedTokenLedger } from '../../../../test/harness/factories-evm-system.ts';
import { registerWorkerSuite } from '../../../../test/harness/worker-suite.ts';

const COUNTER = 1700n;
const counter = artifact('Counter');
const token = artifact('SimToken');
const longZero = (num: bigint) => `0x${num.toString(16).padStart(40, '0')}`;
const hexOf = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;

const { worker } = registerWorkerSuite({
  async seed({ sql }) {
    await seedTokenLedger(sql);
    await insertContract(
      sql,
      { id: COUNTER, created_timestamp: GENESIS },
      { runtime_bytecode: Buffer.from(counter.runtime, 'hex') },
    );
    await insertContractSlot(sql, { contract_id: COUNTER, slot: 0n, value: 7n, modified_timestamp: GENESIS });
  },
});

let clients = 0;
/** Statements the Worker ran for one call, and its answer; `client` keeps a series of calls on one executor. */
async function statementsOf(body: object, client: string): Promise<{ statements: number; result: unknown }> {
  const before = worker.dbQueries;
  const response = await fetch(`${worker.baseUrl}/api/v1/contracts/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': client },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { result?: unknown };
  expect(response.status, JSON.stringify(answer)).toBe(200);
  return { statements: worker.dbQueries - before, result: answer.result };
}

/** The statements of a first call and of the same call right after it, from one new client. */
async function firstAndRepeated(body: object): Promise<[number, number]> {
  clients++;
  const client = `192.0.2.${clients}`;
  const first = await statementsOf(body, client);
  const repeated = await statementsOf(body, client);
  expect(repeated.result).toEqual(first.result);
  return [first.statements, repeated.statements];
}

const balanceOfHolder = hexOf(callData(token, 'balanceOf(address)', [word(HOLDER)]));

describe('SQL statements per contract call', () => {
  it('runs five for a first pure call (block, contract, payer, bytecode, slot) and none when it is repeated at latest', async () => {
    const [first, repeated] = await firstAndRepeated({
      to: longZero(COUNTER),
      data: hexOf(callData(counter, 'count()', [])),
    });
    expect(first).toBe(5);
    expect(repeated).toBe(0);
  });

  it('runs none for an ERC-20 balanceOf through a token redirect repeated at latest', async () => {
    const [first, repeated] = await firstAndRepeated({ to: longZero(FUNGIBLE), data: balanceOfHolder });
    expect(first).toBeGreaterThan(0);
    expect(repeated).toBe(0);
  });

  it('runs none for an ERC-721 balanceOf repeated at latest', async () => {
    const [, repeated] = await firstAndRepeated({ to: longZero(NFT), data: balanceOfHolder });
    expect(repeated).toBe(0);
  });

  it('runs none for an estimate repeated at latest, however many runs its search makes', async () => {
    const increment = hexOf(callData(counter, 'increment(uint256)', [word(5n)]));
    const [first, repeated] = await firstAndRepeated({ to: longZero(COUNTER), data: increment, estimate: true });
    expect(first).toBeGreaterThan(0);
    expect(repeated).toBe(0);
  });

  it('runs a historical call’s reads again when it is repeated, all but the block’s', async () => {
    const block = String(past.number);
    const [first, repeated] = await firstAndRepeated({ to: longZero(FUNGIBLE), data: balanceOfHolder, block });
    expect(first).toBe(12);
    expect(repeated).toBe(11);
  });
});
