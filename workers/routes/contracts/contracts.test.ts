import { beforeAll, describe, expect, it } from 'vitest';
import { insertRow, ns } from '../../../test/harness/factories.ts';
import {
  insertContract,
  insertContractLog,
  insertContractResult,
  insertEthereumTransaction,
  insertRecordFile,
} from '../../../test/harness/factories-contracts.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';

const CONTRACT = 5001n;
const OTHER = 5002n;
const SENDER = 9001n;
const EVM_ADDRESS = '70f2b2914a2a4b783faefb75f459a580616fcb5e';
const T1 = ns('2000.000000001');
const T2 = ns('2001.000000001');
const T3 = ns('2002.000000001');
const HASH1 = Buffer.alloc(32, 0x11);
const HASH2 = Buffer.alloc(32, 0x22);
const TOPIC = Buffer.from('ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', 'hex');

const { worker } = registerWorkerSuite({
  seed: async (db) => {
    await insertContract(
      db.sql,
      {
        id: CONTRACT,
        created_timestamp: ns('1000'),
        evm_address: Buffer.from(EVM_ADDRESS, 'hex'),
        key: Buffer.from('0101', 'hex'),
      },
      { file_id: 2001, runtime_bytecode: Buffer.from('3630', 'hex') },
    );
    await insertRow(db.sql, 'entity_history', {
      id: CONTRACT,
      num: CONTRACT,
      realm: 0,
      shard: 0,
      memo: 'old memo',
      type: 'CONTRACT',
      decline_reward: false,
      created_timestamp: ns('1000'),
      timestamp_range: `[${ns('500')},${ns('1000')})`,
    });
    // the contract's code, uploaded as hex text to file 0.0.2001 before it was created
    await insertRow(db.sql, 'file_data', {
      entity_id: 2001,
      consensus_timestamp: ns('999'),
      transaction_type: 17,
      file_data: Buffer.from('6080'),
    });
    await insertContract(
      db.sql,
      { id: OTHER, created_timestamp: ns('1001') },
      { initcode: Buffer.from('abcd', 'hex') },
    );

    await insertContractResult(
      db.sql,
      { consensus_timestamp: T1, contract_id: CONTRACT, payer_account_id: SENDER, transaction_hash: HASH1 },
      [OTHER],
    );
    await insertEthereumTransaction(db.sql, { consensus_timestamp: T1, payer_account_id: SENDER, hash: HASH1 });
    await insertRow(db.sql, 'transaction', {
      consensus_timestamp: T1,
      payer_account_id: SENDER,
      valid_start_ns: T1 - 1n,
      type: 50,
      result: 22,
      nonce: 0,
      scheduled: false,
      index: 1,
    });
    await insertContractLog(db.sql, { consensus_timestamp: T1, contract_id: CONTRACT, index: 0, topic0: TOPIC });
    await insertContractLog(db.sql, {
      consensus_timestamp: T1,
      contract_id: OTHER,
      index: 1,
      topic0: Buffer.from('01', 'hex'),
    });
    await insertRow(db.sql, 'contract_state_change', {
      consensus_timestamp: T1,
      contract_id: CONTRACT,
      payer_account_id: SENDER,
      slot: Buffer.from('01', 'hex'),
      value_read: Buffer.from('00', 'hex'),
      value_written: Buffer.from('05', 'hex'),
      migration: false,
    });
    await insertRow(db.sql, 'contract_state', {
      contract_id: CONTRACT,
      created_timestamp: T1,
      modified_timestamp: T1,
      slot: Buffer.from(`${'0'.repeat(62)}01`, 'hex'),
      value: Buffer.from('07', 'hex'),
    });
    await insertRow(db.sql, 'contract_action', {
      call_depth: 0,
      call_operation_type: 1,
      call_type: 1,
      caller: SENDER,
      caller_type: 'ACCOUNT',
      consensus_timestamp: T1,
      gas: 1000,
      gas_used: 500,
      index: 0,
      payer_account_id: SENDER,
      recipient_contract: CONTRACT,
      result_data_type: 11,
      value: 0,
    });
    await insertRecordFile(db.sql, {
      consensus_start: ns('1999.9'),
      consensus_end: ns('2000.5'),
      index: 10n,
      hash: 'ab'.repeat(48),
    });

    await insertContractResult(db.sql, {
      consensus_timestamp: T2,
      contract_id: CONTRACT,
      payer_account_id: SENDER,
      transaction_hash: HASH2,
      call_result: null,
      amount: 30,
    });
    await insertContractResult(db.sql, {
      consensus_timestamp: T3,
      contract_id: OTHER,
      payer_account_id: SENDER,
      transaction_nonce: 1,
    });
  },
});

// registered after registerWorkerSuite's hooks, so it runs once the Worker has started
beforeAll(async () => {
  await worker.setState({ config: { response: { enableDelegationAddress: true } } });
});

describe('GET /api/v1/contracts', () => {
  it('lists contracts newest id first, with a next link by contract id', async () => {
    const res = await worker.get('/api/v1/contracts?limit=1');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=10');
    expect(res.body.contracts.map((c: { contract_id: string }) => c.contract_id)).toEqual(['0.0.5002']);
    expect(res.body.links.next).toBe('/api/v1/contracts?limit=1&contract.id=lt:0.0.5002');
  });

  it('filters by an EVM address and answers 404 naming an unknown one', async () => {
    const found = await worker.get(`/api/v1/contracts?contract.id=${EVM_ADDRESS}`);
    expect(found.body.contracts.map((c: { contract_id: string }) => c.contract_id)).toEqual(['0.0.5001']);
    const missing = await worker.get(`/api/v1/contracts?contract.id=${'55'.repeat(20)}`);
    expect(missing.status).toBe(404);
    expect(missing.body._status.messages[0].message).toBe(
      `No contract with the given evm address 0x${'55'.repeat(20)} has been found.`,
    );
  });
});

describe('GET /api/v1/contracts/{contractIdOrAddress}', () => {
  it('shows the code the contract was created from, read from its file as text', async () => {
    const res = await worker.get(`/api/v1/contracts/0x${EVM_ADDRESS}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      contract_id: '0.0.5001',
      bytecode: '0x6080',
      runtime_bytecode: '0x3630',
      evm_address: `0x${EVM_ADDRESS}`,
      admin_key: { _type: 'ProtobufEncoded', key: '0101' },
    });
  });

  it('shows the init code column when the contract has no file', async () => {
    const res = await worker.get('/api/v1/contracts/0.0.5002');
    expect(res.body.bytecode).toBe('0xabcd');
    expect(res.body.runtime_bytecode).toBe('0x');
  });

  it('finds the version of the contract valid at a timestamp', async () => {
    const res = await worker.get('/api/v1/contracts/5001?timestamp=600');
    expect(res.body.memo).toBe('old memo');
    expect(res.body.timestamp).toEqual({ from: '500.000000000', to: '1000.000000000' });
  });

  it('refuses a malformed id', async () => {
    const res = await worker.get('/api/v1/contracts/abc');
    expect(res.status).toBe(400);
    expect(res.body._status.messages).toEqual([{ message: 'Invalid parameter: contractid' }]);
  });
});

describe('contract results', () => {
  it("lists a contract's results as stored, newest first", async () => {
    const res = await worker.get('/api/v1/contracts/0.0.5001/results');
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { timestamp: string }) => r.timestamp)).toEqual([
      '2001.000000001',
      '2000.000000001',
    ]);
    expect(res.body.results[1]).not.toHaveProperty('authorization_list');
    expect(res.body.results[1].address).toBe(`0x${EVM_ADDRESS}`);
  });

  it('lists all results in tinybar, or in weibar with hbar=false, leaving internal ones out by default', async () => {
    const tinybar = await worker.get('/api/v1/contracts/results');
    expect(tinybar.headers.get('cache-control')).toBe('public, max-age=10');
    const [second, first] = tinybar.body.results;
    expect(first).toMatchObject({ amount: 3000000000, gas_price: '0x4a817c80', block_number: 10, nonce: 5 });
    expect(first.authorization_list).toEqual([]);
    expect(second.amount).toBe(30);

    const weibar = await worker.get('/api/v1/contracts/results?hbar=false');
    expect(weibar.body.results[1]).toMatchObject({ gas_price: '0xad78ebc5ac620000' });
    expect(String(weibar.body.results[1].amount)).toBe('30000000000000000000');
    expect(String(weibar.body.results[0].amount)).toBe('300000000000');

    const internal = await worker.get('/api/v1/contracts/results?internal=true');
    expect(internal.body.results).toHaveLength(3);
  });

  it('filters by block and checks the block parameters', async () => {
    const res = await worker.get('/api/v1/contracts/results?block.number=10&transaction.index=1');
    expect(res.body.results.map((r: { timestamp: string }) => r.timestamp)).toEqual(['2000.000000001']);
    const bad = await worker.get('/api/v1/contracts/results?transaction.index=1');
    expect(bad.status).toBe(400);
    expect(bad.body._status.messages[0].message).toBe(
      'Invalid parameter usage: transaction.index - transaction.index requires block.number or block.hash filter to be specified',
    );
  });

  it('shows a result by hash with its logs and state changes', async () => {
    const res = await worker.get(`/api/v1/contracts/results/0x${HASH1.toString('hex')}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=600');
    expect(res.body.logs.map((l: { index: number }) => l.index)).toEqual([0, 1]);
    expect(res.body.logs[0].topics).toEqual([`0x${TOPIC.toString('hex')}`]);
    expect(res.body.state_changes).toEqual([
      {
        address: `0x${EVM_ADDRESS}`,
        contract_id: '0.0.5001',
        slot: `0x${'0'.repeat(63)}1`,
        value_read: `0x${'0'.repeat(64)}`,
        value_written: `0x${'0'.repeat(63)}5`,
      },
    ]);
    expect(res.body.from).toBe('0x0000000000000000000000000000000000002329');
  });

  it('answers 206 for a result without its call result yet', async () => {
    const res = await worker.get('/api/v1/contracts/0.0.5001/results/2001.000000001');
    expect(res.status).toBe(206);
    expect(res.body.amount).toBe(30);
  });

  it('answers 404 for an unknown hash and 400 for a bad hbar value', async () => {
    expect((await worker.get(`/api/v1/contracts/results/${'ee'.repeat(32)}`)).status).toBe(404);
    const bad = await worker.get('/api/v1/contracts/0.0.5001/results/2000.000000001?hbar=yes');
    expect(bad.status).toBe(400);
    expect(bad.body._status.messages[0].message).toBe("Invalid hbar parameter value: yes. Must be 'true' or 'false'");
  });

  it("lists the transaction's actions", async () => {
    const res = await worker.get(`/api/v1/contracts/results/${HASH1.toString('hex')}/actions`);
    expect(res.status).toBe(200);
    expect(res.body.actions).toEqual([
      expect.objectContaining({ caller: '0.0.9001', recipient: '0.0.5001', recipient_type: 'CONTRACT', index: 0 }),
    ]);
  });
});

describe('contract logs', () => {
  it('requires a timestamp range to search topics', async () => {
    const res = await worker.get('/api/v1/contracts/results/logs?topic0=0x01');
    expect(res.status).toBe(400);
    expect(res.body._status.messages[0].message).toBe(
      'Cannot search topics without a valid timestamp range: No timestamp range or eq operator provided',
    );
  });

  it('pages logs by timestamp and index', async () => {
    const first = await worker.get(
      '/api/v1/contracts/results/logs?timestamp=gte:1999&timestamp=lte:2003&limit=1&order=asc',
    );
    expect(first.body.logs.map((l: { index: number }) => l.index)).toEqual([0]);
    expect(first.body.logs[0]).toMatchObject({
      block_number: 10,
      contract_id: '0.0.5001',
      timestamp: '2000.000000001',
    });
    expect(first.body.links.next).toBe(
      '/api/v1/contracts/results/logs?timestamp=lte:2003&timestamp=gte:2000.000000001&limit=1&order=asc&index=gt:0',
    );
    const second = await worker.get(first.body.links.next);
    expect(second.body.logs.map((l: { index: number }) => l.index)).toEqual([1]);
  });

  it("finds a contract's logs by topic", async () => {
    const res = await worker.get(
      `/api/v1/contracts/0.0.5001/results/logs?topic0=0x${TOPIC.toString('hex')}&timestamp=2000.000000001`,
    );
    expect(res.body.logs.map((l: { contract_id: string }) => l.contract_id)).toEqual(['0.0.5001']);
  });
});

describe('GET /api/v1/contracts/{contractIdOrAddress}/state', () => {
  it('shows the current storage, or the storage as of a timestamp', async () => {
    const current = await worker.get('/api/v1/contracts/0.0.5001/state');
    expect(current.body.state).toEqual([
      {
        address: `0x${EVM_ADDRESS}`,
        contract_id: '0.0.5001',
        timestamp: '2000.000000001',
        slot: `0x${'0'.repeat(63)}1`,
        value: `0x${'0'.repeat(63)}7`,
      },
    ]);
    const past = await worker.get('/api/v1/contracts/0.0.5001/state?timestamp=2000.5');
    expect(past.body.state[0].value).toBe(`0x${'0'.repeat(63)}5`);
    const before = await worker.get('/api/v1/contracts/0.0.5001/state?timestamp=1999');
    expect(before.body.state).toEqual([]);
  });
});
