import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, type Database } from '../../db/client.ts';
import { proxyTarget, type SqlProxy, startSqlProxy } from '../../db/local/sql-proxy.ts';
import { artifact, callData, fromHex, word } from '../../simulator/evm/abi.ts';
import { insertRecordFile } from '../../test/harness/factories-blocks.ts';
import { insertContract } from '../../test/harness/factories-contracts.ts';
import { insertContractSlot } from '../../test/harness/factories-evm.ts';
import { insertEntity } from '../../test/harness/factories-tokens.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { longZeroAddress } from './addresses.ts';
import { openSession } from './session.ts';
import type { BlockContext, CallTransaction, EvmSettings } from './types.ts';

const SECOND = 1_000_000_000n;
const GENESIS = 1_700_000_000n * SECOND;
const COUNTER = 1001n;
const counter = artifact('Counter');

const settings: EvmSettings = {
  chainId: 296n,
  network: 'TESTNET',
  maxGasLimit: 15_000_000n,
  validatePayerBalance: false,
  shard: 0n,
  realm: 0n,
};

const latest: BlockContext = {
  number: 20n,
  consensusStart: GENESIS + 100n * SECOND,
  consensusEnd: GENESIS + 102n * SECOND,
  hash: 'b2'.repeat(48),
  historical: false,
};

let testDb: TestDatabase;
let proxy: SqlProxy;
let db: Database;

beforeAll(async () => {
  testDb = await createTestDatabase();
  proxy = await startSqlProxy({ port: 0, targets: [proxyTarget(testDb.url, inject('pgSocketDir'))] });
  db = createDatabase({ url: testDb.url, localProxy: proxy.address });
  const sql = testDb.sql;
  await insertRecordFile(sql, {
    index: latest.number,
    consensus_start: latest.consensusStart,
    consensus_end: latest.consensusEnd,
    hash: latest.hash,
  });
  await insertEntity(sql, 2n, GENESIS, { balance: 5_000_000_000_000_000_000n });
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
});

afterAll(async () => {
  await proxy?.close();
  await testDb?.drop();
});

const call = (
  to: Uint8Array | undefined,
  data: Uint8Array,
  change: Partial<CallTransaction> = {},
): CallTransaction => ({
  from: undefined,
  to,
  data,
  value: 0n,
  gas: 15_000_000n,
  gasPrice: 0n,
  ...change,
});

const uint = (bytes: Uint8Array): bigint => BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);

describe('a call at the latest block', () => {
  it('reads a contract slot from contract_state', async () => {
    const outcome = await openSession({ db, block: latest, settings }).run(
      call(longZeroAddress(COUNTER), callData(counter, 'count()', [])),
    );
    expect(outcome.ok).toBe(true);
    expect(uint(outcome.output)).toBe(7n);
  });

  it('runs a state change on the write overlay only: each run starts from the ledger', async () => {
    const session = openSession({ db, block: latest, settings });
    const increment = call(longZeroAddress(COUNTER), callData(counter, 'increment(uint256)', [word(5n)]));
    const first = await session.run(increment);
    const second = await session.run(increment);
    expect(uint(first.output)).toBe(12n);
    expect(uint(second.output)).toBe(12n);
    expect(first.gasUsed).toBe(second.gasUsed);
  });

  it('answers a revert with CONTRACT_REVERT_EXECUTED and the Error(string) data', async () => {
    const outcome = await openSession({ db, block: latest, settings }).run(
      call(longZeroAddress(COUNTER), callData(counter, 'increment(uint256)', [word(0n)])),
    );
    expect(outcome).toMatchObject({ ok: false, status: 'CONTRACT_REVERT_EXECUTED' });
    expect(Buffer.from(outcome.output).toString('hex')).toMatch(/^08c379a0/);
    expect(Buffer.from(outcome.output).toString('utf8')).toContain('step out of range');
  });

  it('answers a create with the runtime code the constructor returns', async () => {
    const initcode = new Uint8Array([...fromHex(counter.initcode), ...word(3n)]);
    const outcome = await openSession({ db, block: latest, settings }).run(call(undefined, initcode));
    expect(outcome.ok).toBe(true);
    expect(Buffer.from(outcome.output).toString('hex')).toBe(counter.runtime);
  });
});
