/**
 * End to end: native blocks with a contract creation and a call (EVM results, call traces, slot usages, stored
 * runtime code) ingested, then read back through the API as the reference serves them.
 */
import { describe, expect, it } from 'vitest';
import { blockTypes } from '../../proto/block.ts';
import { registerWorkerSuite } from '../../test/harness/worker-suite.ts';
import { ingestNativeBlocks } from '../testing/ingest-blocks.ts';
import type { NativeTransaction } from '../testing/native-blocks.ts';

const T = 1_770_000_000_000_000_000n;
const CREATE_AT = T + 10n;
const CALL_AT = T + 2_000_000_010n;
const hex = (text: string) => new Uint8Array(Buffer.from(text, 'hex'));
const RUNTIME = hex('6080604052348015600f57600080fd5b50');
const DEPLOY = hex('608060405234801561001057600080fd5b50');
const METADATA = hex('a264697066735822');
const contract = (n: number) => ({ contractNum: n });
const CALL = 1;
const CREATE = 2;
const OP_CALL = 1;
const OP_CREATE = 5;

const { SlotValueValue, BytecodeValue } = blockTypes();
const slotWrite = (id: number, key: Uint8Array, value: Uint8Array) => ({
  state_id: 4,
  map_update: {
    key: { slot_key_key: { contractID: contract(id), key } },
    value: { slot_value_value: SlotValueValue.encode({ value }).finish() },
  },
});

const create: NativeTransaction = {
  timestamp: CREATE_AT,
  body: { contractCreateInstance: { gas: 400_000, autoRenewPeriod: { seconds: 7_776_000 }, memo: 'from a block' } },
  outputs: [
    {
      contract_create: {
        evm_transaction_result: {
          sender_id: { accountNum: 2 },
          contract_id: contract(1001),
          result_data: RUNTIME,
          gas_used: 200_000,
          internal_call_context: { gas: 400_000, value: 0 },
        },
      },
    },
  ],
  traces: [
    {
      evm_trace_data: {
        executed_initcode: {
          contract_id: contract(1001),
          initcode_bookends: { deploy_bytecode: DEPLOY, metadata_bytecode: METADATA },
        },
        contract_actions: [
          {
            call_type: CREATE,
            calling_account: { accountNum: 2 },
            gas: 400_000,
            gas_used: 200_000,
            recipient_contract: contract(1001),
            output: RUNTIME,
            call_operation_type: OP_CREATE,
          },
        ],
        contract_slot_usages: [
          {
            contract_id: contract(1001),
            written_keys_are_non_identical_state_changes: true,
            slot_reads: [{ index: 0 }],
          },
        ],
      },
    },
  ],
  stateChanges: [
    {
      state_id: 5,
      map_update: {
        key: { contract_id_key: contract(1001) },
        value: { bytecode_value: BytecodeValue.encode({ code: RUNTIME }).finish() },
      },
    },
    slotWrite(1001, new Uint8Array(), hex('05')),
  ],
};

// 1001 writes its slot 0 (5 → 7) and reads slot 1, and calls 1002, which writes its slot 3 (0 → 9).
const call: NativeTransaction = {
  timestamp: CALL_AT,
  body: { contractCall: { contractID: contract(1001), gas: 100_000, functionParameters: hex('abcdef01') } },
  outputs: [
    {
      contract_call: {
        evm_transaction_result: {
          sender_id: { accountNum: 2 },
          contract_id: contract(1001),
          result_data: hex('01'),
          gas_used: 50_000,
          internal_call_context: { gas: 100_000, value: 0, call_data: hex('abcdef01') },
        },
      },
    },
  ],
  traces: [
    {
      evm_trace_data: {
        contract_actions: [
          {
            call_type: CALL,
            calling_account: { accountNum: 2 },
            gas: 100_000,
            gas_used: 50_000,
            input: hex('abcdef01'),
            recipient_contract: contract(1001),
            output: hex('01'),
            call_operation_type: OP_CALL,
          },
          {
            call_type: CALL,
            calling_contract: contract(1001),
            gas: 30_000,
            gas_used: 5_000,
            input: hex('12'),
            recipient_contract: contract(1002),
            output: new Uint8Array(),
            call_operation_type: OP_CALL,
            call_depth: 1,
          },
        ],
        contract_slot_usages: [
          {
            contract_id: contract(1001),
            written_slot_keys: { keys: [new Uint8Array()] },
            slot_reads: [
              { index: 0, read_value: hex('05') },
              { key: hex('01'), read_value: hex('2a') },
            ],
          },
          {
            contract_id: contract(1002),
            written_keys_are_non_identical_state_changes: true,
            slot_reads: [{ index: 0 }],
          },
        ],
      },
    },
  ],
  stateChanges: [slotWrite(1001, new Uint8Array(), hex('07')), slotWrite(1002, hex('03'), hex('09'))],
};

const { worker } = registerWorkerSuite({
  seed: async (db) => {
    const run = await ingestNativeBlocks(db.url, [
      { timestamp: T, transactions: [create] },
      { timestamp: T + 2_000_000_000n, transactions: [call] },
    ]);
    expect(run.blocks).toBe(2);
  },
  timeout: 180_000,
});

const word = (value: string) => `0x${value.padStart(64, '0')}`;
const address = (num: number) => `0x${num.toString(16).padStart(40, '0')}`;

describe('contracts ingested from native blocks, through the API', () => {
  it('shows the created contract with its initcode (bookends around the stored runtime) and runtime bytecode', async () => {
    const response = await worker.get('/api/v1/contracts/0.0.1001');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      contract_id: '0.0.1001',
      created_timestamp: '1770000000.000000010',
      evm_address: address(1001),
      memo: 'from a block',
      file_id: null,
      bytecode: `0x${Buffer.concat([DEPLOY, RUNTIME, METADATA]).toString('hex')}`,
      runtime_bytecode: `0x${Buffer.from(RUNTIME).toString('hex')}`,
    });
  });

  it('lists the call trace of a contract call as its actions', async () => {
    const response = await worker.get('/api/v1/contracts/results/0.0.2-1770000001-000000010/actions');
    expect(response.status).toBe(200);
    const common = { call_operation_type: 'CALL', call_type: 'CALL', recipient_type: 'CONTRACT' };
    const timestamp = '1770000002.000000010';
    expect(response.body).toEqual({
      actions: [
        {
          ...common,
          call_depth: 0,
          caller: '0.0.2',
          caller_type: 'ACCOUNT',
          from: address(2),
          gas: 100000,
          gas_used: 50000,
          index: 0,
          input: '0xabcdef01',
          recipient: '0.0.1001',
          result_data: '0x01',
          result_data_type: 'OUTPUT',
          timestamp,
          to: address(1001),
          value: 0,
        },
        {
          ...common,
          call_depth: 1,
          caller: '0.0.1001',
          caller_type: 'CONTRACT',
          from: address(1001),
          gas: 30000,
          gas_used: 5000,
          index: 1,
          input: '0x12',
          recipient: '0.0.1002',
          result_data: '0x',
          result_data_type: 'OUTPUT',
          timestamp,
          to: address(1002),
          value: 0,
        },
      ],
      links: { next: null },
    });
  });

  it('serves the current state: the written slot with its newest value, not the slot only read', async () => {
    const response = await worker.get('/api/v1/contracts/0.0.1001/state');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      state: [
        {
          address: address(1001),
          contract_id: '0.0.1001',
          timestamp: '1770000002.000000010',
          slot: word(''),
          value: word('07'),
        },
      ],
      links: { next: null },
    });
  });

  it('gives each contract of the call its own slots, values read and written', async () => {
    const response = await worker.get('/api/v1/contracts/results/0.0.2-1770000001-000000010');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      contract_id: '0.0.1001',
      call_result: '0x01',
      function_parameters: '0xabcdef01',
      gas_limit: 100000,
      gas_used: 50000,
      block_number: 1,
      result: 'SUCCESS',
    });
    const change = (id: number, slot: string, read: string, written: string | null) => ({
      address: address(id),
      contract_id: `0.0.${id}`,
      slot: word(slot),
      value_read: word(read),
      value_written: written === null ? null : word(written),
    });
    expect(response.body.state_changes).toEqual([
      change(1001, '', '05', '07'),
      change(1001, '01', '2a', null),
      change(1002, '03', '', '09'),
    ]);
    const created = await worker.get('/api/v1/contracts/results/0.0.2-1769999999-000000010');
    expect(created.body.state_changes).toEqual([change(1001, '', '', '05')]);
  });
});
