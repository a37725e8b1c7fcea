import { beforeEach, describe, expect, it } from 'vitest';
import { artifact, callData, word } from '../../../../simulator/evm/abi.ts';
import { callOf, GENESIS, openWorkerDriver, SECOND, TESTNET_SETTINGS } from '../../../../test/harness/evm-session.ts';
import { insertRecordFile } from '../../../../test/harness/factories-blocks.ts';
import { insertContract } from '../../../../test/harness/factories-contracts.ts';
import { insertContractSlot } from '../../../../test/harness/factories-evm.ts';
import { exchangeRateSetBytes, FILE_CREATE, insertFileData } from '../../../../test/harness/factories-network.ts';
import { insertEntity } from '../../../../test/harness/factories-tokens.ts';
import { registerWorkerSuite } from '../../../../test/harness/worker-suite.ts';
import { longZeroAddress } from '../../../evm/addresses.ts';
import { openSession } from '../../../evm/session.ts';
import { resolveBlock } from './resolve-block.ts';
import { callClient, executorShard } from './shard.ts';
import { twoBlocks } from './testing/blocks.ts';

const COUNTER = 1001n;
const POOR_ACCOUNT = 1002n;
const counter = artifact('Counter');

const longZero = (num: bigint) => `0x${num.toString(16).padStart(40, '0')}`;
const hexOf = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;
const COUNT = hexOf(callData(counter, 'count()', []));
const INCREMENT_5 = hexOf(callData(counter, 'increment(uint256)', [word(5n)]));
const INCREMENT_0 = hexOf(callData(counter, 'increment(uint256)', [word(0n)]));
const NOBODY = '0x00000000000000000000000000000000000004e2';
const RECEIVER_ACCOUNT = 1003n;
/** An account without code (not the treasury: 0x…02 is also the SHA-256 precompile's address). */
const RECEIVER = longZero(RECEIVER_ACCOUNT);

const { db, worker } = registerWorkerSuite({
  async seed({ sql }) {
    for (const block of twoBlocks(GENESIS, SECOND)) await insertRecordFile(sql, block);
    await insertEntity(sql, 2n, GENESIS, { balance: 5_000_000_000_000_000_000n });
    await insertEntity(sql, POOR_ACCOUNT, GENESIS, { balance: 100n });
    await insertEntity(sql, RECEIVER_ACCOUNT, GENESIS, { balance: 0n });
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
    // 1 ℏ = 10 ¢ in the exchange rate file 0.0.112, which the system contract 0x168 converts with.
    const rate = { hbars: 1, cents: 10, expiration: Number(GENESIS / SECOND) + 86_400 };
    await insertFileData(sql, {
      consensus_timestamp: GENESIS + SECOND,
      entity_id: 112n,
      file_data: exchangeRateSetBytes(rate, rate),
      transaction_type: FILE_CREATE,
    });
  },
});

/** Settings for the requests that follow; the generic per-client limiter is off so only the call's own throttles count. */
const settings = (web3: object = {}) => worker.setState({ config: { edge: { rateLimit: { enabled: false } }, web3 } });

let clientNumber = 0;
/** A client address of its own per test, so no test meets the buckets another one drained. */
const freshClient = () => `198.51.100.${++clientNumber}`;

async function post(body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${worker.baseUrl}/api/v1/contracts/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': freshClient(), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

beforeEach(() => settings());

describe('POST /api/v1/contracts/call execution', () => {
  it('reads the contract as of a historical block: before its creation it is INVALID_CONTRACT_ID', async () => {
    const response = await post({ to: longZero(COUNTER), data: COUNT, block: 'earliest' });
    expect([response.status, response.body._status.messages[0].message]).toEqual([400, 'INVALID_CONTRACT_ID']);
  });

  it('converts 100 tinycents to tinybars at the current exchange rate through 0x168', async () => {
    const data = `0x2e3cff6a${(100).toString(16).padStart(64, '0')}`;
    const response = await post({ to: '0x0000000000000000000000000000000000000168', data });
    expect([response.status, response.body]).toEqual([200, { result: `0x${'a'.padStart(64, '0')}` }]);
  });

  it('answers a call with the return data', async () => {
    const response = await post({ to: longZero(COUNTER), data: COUNT });
    expect([response.status, response.body]).toEqual([200, { result: `0x${'7'.padStart(64, '0')}` }]);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('runs every call: a repeated one is not answered from the edge cache', async () => {
    const body = { to: longZero(COUNTER), data: COUNT, block: '0x14' };
    await post(body);
    const before = worker.dbQueries;
    expect(await post(body)).toMatchObject({ status: 200 });
    expect(worker.dbQueries).toBeGreaterThan(before);
  });

  it('accepts call data in mixed case to an account without code', async () => {
    expect(await post({ to: RECEIVER, data: '0xaBeCd0' })).toMatchObject({ status: 200, body: { result: '0x' } });
  });

  it('answers a revert with its reason and data', async () => {
    const response = await post({ to: longZero(COUNTER), data: INCREMENT_0 });
    expect(response.status).toBe(400);
    const [message] = response.body._status.messages;
    expect(message.message).toBe('CONTRACT_REVERT_EXECUTED');
    expect(message.data).toMatch(/^0x08c379a0/);
    expect(message.detail).toBe(
      Buffer.from(message.data.slice(2 + 8 + 128), 'hex')
        .toString('utf8')
        .replace(/\0+$/, ''),
    );
  });

  it('answers an unknown selector of a contract without fallback with a bare CONTRACT_REVERT_EXECUTED', async () => {
    const response = await post({ to: longZero(COUNTER), data: '0xdeadbeef' });
    expect([response.status, response.body]).toEqual([
      400,
      { _status: { messages: [{ message: 'CONTRACT_REVERT_EXECUTED', detail: '', data: '0x' }] } },
    ]);
  });

  // Init code returning one word is a contract create whose answer is that word: the block values as the EVM sees them.
  const returnWord = (push: string) => `0x${push}60005260206000f3`;

  it.each<[string, string, string]>([
    ['BLOCKHASH of the latest block', returnWord('4340'), 'b2'.repeat(32)],
    ['BLOCKHASH of 2^63-1', returnWord('677fffffffffffffff40'), '0'.repeat(64)],
    ['TIMESTAMP', returnWord('42'), (GENESIS / SECOND + 100n).toString(16).padStart(64, '0')],
    ['NUMBER', returnWord('43'), (20).toString(16).padStart(64, '0')],
  ])('answers %s as the reference does', async (_name, data, word) => {
    expect(await post({ data })).toMatchObject({ status: 200, body: { result: `0x${word}` } });
  });

  it('estimates gas with which the call succeeds', async () => {
    const response = await post({ to: longZero(COUNTER), data: INCREMENT_5, estimate: true });
    expect(response.status).toBe(200);
    expect(response.body.result).toMatch(/^0x[0-9a-f]{16}$/);
    const estimate = BigInt(response.body.result);
    expect(estimate).toBeGreaterThan(21_000n);
    expect(estimate).toBeLessThan(15_000_000n);
    const withEstimate = await post({ to: longZero(COUNTER), data: INCREMENT_5, gas: Number(estimate) });
    expect([withEstimate.status, withEstimate.body]).toEqual([200, { result: `0x${'c'.padStart(64, '0')}` }]);
  });

  it('estimates within 100-120% of the gas the call uses', async () => {
    const driver = await openWorkerDriver(db.url);
    try {
      const block = await resolveBlock(driver.db, { kind: 'latest' });
      if (!block) throw new Error('no block');
      const session = openSession({ db: driver.db, block, settings: TESTNET_SETTINGS });
      const outcome = await session.run(callOf(longZeroAddress(COUNTER), Buffer.from(INCREMENT_5.slice(2), 'hex')));
      const response = await post({ to: longZero(COUNTER), data: INCREMENT_5, estimate: true });
      const estimate = BigInt(response.body.result);
      expect(estimate * 100n).toBeGreaterThanOrEqual(outcome.gasUsed * 100n);
      expect(estimate * 100n).toBeLessThanOrEqual(outcome.gasUsed * 120n);
    } finally {
      await driver.close();
    }
  });

  it.each([
    '0x0000000000000000000000000000000000000167',
    '0x0000000000000000000000000000000000000168',
    '0x0000000000000000000000000000000000000169',
  ])('answers a call to the system contract %s without data with CONTRACT_EXECUTION_EXCEPTION', async (to) => {
    const response = await post({ to, data: '0x' });
    expect([response.status, response.body._status.messages[0].message]).toEqual([400, 'CONTRACT_EXECUTION_EXCEPTION']);
  });

  it('answers an unknown sender of value with PAYER_ACCOUNT_NOT_FOUND, and a contract sender with 0x', async () => {
    const unknown = await post({ from: longZero(9999n), to: RECEIVER, value: 10 });
    expect([unknown.status, unknown.body._status.messages[0].message]).toEqual([400, 'PAYER_ACCOUNT_NOT_FOUND']);
    expect(await post({ from: longZero(COUNTER), to: RECEIVER, value: 10 })).toMatchObject({
      status: 200,
      body: { result: '0x' },
    });
  });

  it('checks the payer balance only when validatePayerBalance is on', async () => {
    const transfer = { from: longZero(POOR_ACCOUNT), to: RECEIVER, value: 1000 };
    expect(await post(transfer)).toMatchObject({ status: 200 });
    await settings({ evm: { validatePayerBalance: true } });
    const refused = await post(transfer);
    expect([refused.status, refused.body._status.messages[0].message]).toEqual([400, 'INSUFFICIENT_PAYER_BALANCE']);
    const paying = await post({ from: longZero(POOR_ACCOUNT), to: RECEIVER, gasPrice: 1_000_000 });
    expect([paying.status, paying.body._status.messages[0].message]).toEqual([400, 'INSUFFICIENT_PAYER_BALANCE']);
    expect(await post({ from: longZero(POOR_ACCOUNT), to: RECEIVER })).toMatchObject({ status: 200 });
    expect(await post({ to: RECEIVER, value: 0 })).toMatchObject({ status: 200 });
  });

  it('answers 503 once a call outlives the request timeout', async () => {
    await settings({ requestTimeout: 50 });
    // A lock holds the call's entity read past its budget (a historical block: no shared cache answers it); the
    // budget is checked before each statement, so the storage read after it is refused.
    await db.sql.query('begin');
    await db.sql.query('lock table entity in access exclusive mode');
    const pending = post({ to: longZero(COUNTER), data: INCREMENT_5, estimate: true, block: '20' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await db.sql.query('rollback');
    const response = await pending;
    expect([response.status, response.body]).toEqual([
      503,
      { _status: { messages: [{ message: 'Service Unavailable', detail: '', data: '' }] } },
    ]);
  });
});

describe('POST /api/v1/contracts/call throttles', () => {
  it('answers 429 with Retry-After beyond the requests per second', async () => {
    await settings({ throttle: { requestsPerSecond: 1 } });
    const client = { 'cf-connecting-ip': freshClient() };
    expect((await post({ to: NOBODY }, client)).status).toBe(200);
    const refused = await post({ to: NOBODY }, client);
    expect([refused.status, refused.body]).toEqual([
      429,
      {
        _status: {
          messages: [{ message: 'Too Many Requests', detail: 'Requests per second rate limit exceeded', data: '' }],
        },
      },
    ]);
    expect(refused.headers.get('retry-after')).toBe('1');
  });

  it('answers 429 beyond the gas per second, counting the gas limit of each call', async () => {
    await settings({ throttle: { gasPerSecond: 20_000_000, gasLimitRefundPercent: 0 } });
    const client = { 'cf-connecting-ip': freshClient() };
    expect((await post({ to: NOBODY, gas: 15_000_000 }, client)).status).toBe(200);
    const refused = await post({ to: NOBODY, gas: 15_000_000 }, client);
    expect([refused.status, refused.body._status.messages[0].detail]).toEqual([
      429,
      'Gas per second rate limit exceeded.',
    ]);
    expect((await post({ to: NOBODY, gas: 21_000 }, client)).status).toBe(200);
  });

  it('runs two clients on different executor objects, each with its own buckets', async () => {
    await settings({ throttle: { requestsPerSecond: 2 } });
    const first = freshClient();
    let second = freshClient();
    const shardOf = (ip: string) => executorShard(callClient((name) => (name === 'cf-connecting-ip' ? ip : undefined)));
    while (shardOf(second) === shardOf(first)) second = freshClient();
    expect((await post({ to: NOBODY }, { 'cf-connecting-ip': first })).status).toBe(200);
    expect((await post({ to: NOBODY }, { 'cf-connecting-ip': first })).status).toBe(200);
    expect((await post({ to: NOBODY }, { 'cf-connecting-ip': first })).status).toBe(429);
    expect((await post({ to: NOBODY }, { 'cf-connecting-ip': second })).status).toBe(200);
  });
});
