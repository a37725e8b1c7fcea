import { request } from 'node:http';
import { beforeEach, describe, expect, it } from 'vitest';
import { artifact, callData, word } from '../../../../simulator/evm/abi.ts';
import { GENESIS, SECOND } from '../../../../test/harness/evm-session.ts';
import { insertTransaction } from '../../../../test/harness/factories.ts';
import { insertRecordFile } from '../../../../test/harness/factories-blocks.ts';
import { insertContract, insertContractResult } from '../../../../test/harness/factories-contracts.ts';
import { insertContractSlot, insertSlotChange } from '../../../../test/harness/factories-evm.ts';
import { insertEntity } from '../../../../test/harness/factories-tokens.ts';
import { registerWorkerSuite } from '../../../../test/harness/worker-suite.ts';
import { twoBlocks } from '../call/testing/blocks.ts';

const COUNTER = 1001n;
const SENDER = 1002n;
const LOOP = 1003n;
const counter = artifact('Counter');
/** A contract that loads a word at 0x400 (33 words of memory) forever: it runs until its gas is gone. */
const LOOP_CODE = Buffer.from('5b610400515060005600', 'hex');

const INCREMENTED = GENESIS + 101n * SECOND;
const REVERTED = INCREMENTED + 1000n;
const TRANSFER = INCREMENTED + 2000n;
const LOOPED = INCREMENTED + 3000n;
const LOOPED_LONG = INCREMENTED + 4000n;
const INCREMENT_HASH = Buffer.alloc(32, 0x11);

const idOf = (payer: bigint, validStartNs: bigint) =>
  `0.0.${payer}-${validStartNs / SECOND}-${(validStartNs % SECOND).toString().padStart(9, '0')}`;
const validStart = (timestamp: bigint) => timestamp - 3n * SECOND;

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
    await insertContract(sql, { id: LOOP, created_timestamp: GENESIS + 10n * SECOND }, { runtime_bytecode: LOOP_CODE });
    await insertContractSlot(sql, {
      contract_id: COUNTER,
      slot: 0n,
      value: 7n,
      modified_timestamp: GENESIS + 50n * SECOND,
    });
    // History is what a replay reads: the state just before the transaction.
    await insertSlotChange(sql, {
      contract_id: COUNTER,
      slot: 0n,
      value_read: 0n,
      value_written: 7n,
      consensus_timestamp: GENESIS + 50n * SECOND,
    });
    const call = async (
      timestamp: bigint,
      contract: bigint,
      data: Uint8Array,
      gas: number,
      result: number,
      hash?: Buffer,
    ) => {
      await insertTransaction(sql, {
        consensus_timestamp: timestamp,
        payer_account_id: SENDER,
        valid_start_ns: validStart(timestamp),
        type: 7,
        result,
      });
      await insertContractResult(sql, {
        consensus_timestamp: timestamp,
        contract_id: contract,
        payer_account_id: SENDER,
        function_parameters: Buffer.from(data),
        gas_limit: gas,
        transaction_result: result,
        ...(hash ? { transaction_hash: hash } : {}),
      });
    };
    await call(INCREMENTED, COUNTER, callData(counter, 'increment(uint256)', [word(5n)]), 100_000, 22, INCREMENT_HASH);
    await call(REVERTED, COUNTER, callData(counter, 'increment(uint256)', [word(0n)]), 100_000, 33);
    await call(LOOPED, LOOP, new Uint8Array(), 50_000, 12);
    await call(LOOPED_LONG, LOOP, new Uint8Array(), 15_000_000, 12);
    await insertTransaction(sql, {
      consensus_timestamp: TRANSFER,
      payer_account_id: SENDER,
      valid_start_ns: validStart(TRANSFER),
    });
  },
});

let clientNumber = 0;
/** A client address of its own per request. */
const freshClient = () => `198.51.100.${++clientNumber}`;

async function trace(id: string, query = '', headers: Record<string, string> = {}) {
  const response = await fetch(`${worker.baseUrl}/api/v1/contracts/results/${id}/opcodes${query}`, {
    headers: { 'accept-encoding': 'gzip', 'cf-connecting-ip': freshClient(), ...headers },
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** A GET through node:http, which sends a header with an empty value as it is (fetch leaves it out). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

const detailOf = (body: { _status: { messages: { detail?: string }[] } }) => body._status.messages[0]?.detail;

/** The tracer on; its bucket (per executor shard, which clients share) only as small as a test asks. */
const enable = (opcodeRequestsPerSecond = 1000) =>
  worker.setState({
    config: {
      edge: { rateLimit: { enabled: false } },
      web3: { opcode: { tracer: { enabled: true } }, throttle: { opcodeRequestsPerSecond } },
    },
  });

describe('GET /api/v1/contracts/results/{id}/opcodes while the tracer is off', () => {
  it('answers 404, as the reference does by default', async () => {
    await worker.setState({ config: { edge: { rateLimit: { enabled: false } } } });
    const response = await trace(idOf(SENDER, validStart(INCREMENTED)));
    expect([response.status, response.body]).toEqual([
      404,
      { _status: { messages: [{ message: 'Not Found', detail: '', data: '' }] } },
    ]);
  });
});

describe('GET /api/v1/contracts/results/{id}/opcodes', () => {
  beforeEach(() => enable());

  // The reference's gateway sends web3 only the ids of its pattern, `(0x)?<64 hex digits>` or
  // `\d+.\d+.\d+-\d+-\d+`; any other is the Node REST API's, which has no such route (reference-gateway.ts).
  it.each([
    '0.0.1234-1234567890',
    '0.0.1234-1-123456789-',
    '0x',
    '0xghijklmno',
    '00000000001239847e',
    `0x${'ab'.repeat(20)}a`,
    '%',
    '%41',
    ' ',
  ])('answers 404 Not found for %j, an id the gateway does not send to web3', async (id) => {
    const response = await trace(encodeURIComponent(id));
    expect([response.status, response.body]).toEqual([404, { _status: { messages: [{ message: 'Not found' }] } }]);
  });

  it.each(['0.0.1234-0-1234567890', '0.0.274877906944-1-1', '1024.0.1-1-1'])(
    'refuses %s, which reaches web3, as an unsupported id format',
    async (id) => {
      const response = await trace(encodeURIComponent(id));
      expect([response.status, detailOf(response.body)]).toEqual([400, `Unsupported ID format: '${id}'`]);
    },
  );

  // An empty header reaches the Worker as none at all: both are answered alike.
  it.each(['deflate', 'identity', 'br', '', undefined])('answers 406 to Accept-Encoding %j', async (encoding) => {
    const url = `${worker.baseUrl}/api/v1/contracts/results/${idOf(SENDER, validStart(INCREMENTED))}/opcodes`;
    const headers: Record<string, string> = { 'cf-connecting-ip': freshClient() };
    if (encoding !== undefined) headers['accept-encoding'] = encoding;
    const response = await rawGet(url, headers);
    expect([response.status, JSON.parse(response.body)._status.messages[0]]).toEqual([
      406,
      { message: 'Not Acceptable', detail: 'Accept-Encoding: gzip header is required', data: '' },
    ]);
  });

  it('answers 404 for an id, a hash or a transaction without a contract result', async () => {
    const missingId = idOf(SENDER, validStart(INCREMENTED) + 1n);
    expect(detailOf((await trace(missingId)).body)).toBe(`Transaction not found: ${missingId}`);
    const missingHash = `0x${'cd'.repeat(32)}`;
    expect(detailOf((await trace(missingHash)).body)).toBe(`Contract transaction hash not found: ${missingHash}`);
    const transfer = await trace(idOf(SENDER, validStart(TRANSFER)));
    expect([transfer.status, detailOf(transfer.body)]).toEqual([404, `Contract result not found: ${TRANSFER}`]);
  });

  it('replays a call on the state before it: storage read and written, the return value, gzip on the wire', async () => {
    const response = await trace(idOf(SENDER, validStart(INCREMENTED)), '?storage=true');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.body).toMatchObject({
      address: `0x${COUNTER.toString(16).padStart(40, '0')}`,
      contract_id: `0.0.${COUNTER}`,
      failed: false,
      return_value: `0x${12n.toString(16).padStart(64, '0')}`,
    });
    expect(Object.keys(response.body)).toEqual(['address', 'contract_id', 'failed', 'gas', 'opcodes', 'return_value']);
    const { opcodes } = response.body;
    expect(Object.keys(opcodes[0])).toEqual([
      'depth',
      'gas',
      'gas_cost',
      'memory',
      'op',
      'pc',
      'reason',
      'stack',
      'storage',
    ]);
    expect(opcodes[0]).toMatchObject({
      pc: 0,
      op: 'PUSH1',
      gas_cost: 3,
      depth: 1,
      stack: [],
      memory: [],
      reason: null,
    });
    const slot0 = `0x${'0'.repeat(64)}`;
    const sload = opcodes.findIndex((entry: { op: string }) => entry.op === 'SLOAD');
    // The slot an SLOAD reads is on its own entry, not before it.
    expect(opcodes[sload - 1].storage).toEqual({});
    expect(opcodes[sload].storage).toEqual({ [slot0]: `0x${7n.toString(16).padStart(64, '0')}` });
    expect(opcodes.at(-1).storage[slot0]).toBe(`0x${12n.toString(16).padStart(64, '0')}`);
    // gas before each step, less its cost, is the gas before the next one in the same frame
    expect(opcodes[0].gas - opcodes[0].gas_cost).toBe(opcodes[1].gas);
    expect(response.body.gas).toBeGreaterThan(21_000);
  });

  it('finds the same transaction by its hash', async () => {
    const byId = await trace(idOf(SENDER, validStart(INCREMENTED)));
    const byHash = await trace(INCREMENT_HASH.toString('hex'));
    expect(byHash.body).toEqual(byId.body);
  });

  // FrameRunner.effectiveGasUsed and HederaEvmTransactionResult.failureFrom (consensus node), with the reference's
  // maxGasRefundPercentage of 100: the EVM's gas without the 80% floor, and no output for a failed transaction.
  it('returns a reverted replay with failed: true and the revert reason on the REVERT entry', async () => {
    const response = await trace(idOf(SENDER, validStart(REVERTED)));
    expect([response.status, response.body.failed]).toEqual([200, true]);
    const revert = response.body.opcodes.at(-1);
    expect(revert.op).toBe('REVERT');
    expect(revert.reason).toMatch(/^0x08c379a0/);
    expect(revert.reason).toContain(Buffer.from('step out of range').toString('hex'));
    expect(response.body.return_value).toBe('0x');
    // Below 80% of its 100,000 gas limit: the floor the ledger charged is not applied.
    expect(response.body.gas).toBeGreaterThan(21_000);
    expect(response.body.gas).toBeLessThan(80_000);
  });

  it('leaves stack, memory and storage empty when they are switched off', async () => {
    const response = await trace(idOf(SENDER, validStart(INCREMENTED)), '?stack=false&memory=false&storage=false');
    for (const entry of response.body.opcodes) {
      expect([entry.stack, entry.memory, entry.storage]).toEqual([[], [], {}]);
    }
  });

  it('shows memory as 32-byte words', async () => {
    const response = await trace(idOf(SENDER, validStart(LOOPED)), '?memory=true');
    expect(response.body).toMatchObject({ failed: true, gas: 50_000 });
    const last = response.body.opcodes.at(-1);
    expect(last.memory).toHaveLength(33);
    expect(last.memory[0]).toBe(`0x${'0'.repeat(64)}`);
  });

  it('refuses a 15M-gas trace with memory past the cap with a 400 before sending anything', async () => {
    const response = await trace(idOf(SENDER, validStart(LOOPED_LONG)), '?memory=true');
    expect([response.status, detailOf(response.body)]).toEqual([400, 'Opcode trace exceeds 67108864 bytes of JSON']);
  });

  it('answers the second request within a second from one client with 429 and Retry-After', async () => {
    await enable(1);
    const client = { 'cf-connecting-ip': freshClient() };
    const id = idOf(SENDER, validStart(INCREMENTED));
    expect((await trace(id, '?stack=false', client)).status).toBe(200);
    const second = await trace(id, '?stack=false', client);
    expect([second.status, second.body._status.messages[0]]).toEqual([
      429,
      { message: 'Too Many Requests', detail: 'Requests per second rate limit exceeded', data: '' },
    ]);
    expect(second.headers.get('retry-after')).toBe('1');
  });
});
