import { describe, expect, it } from 'vitest';
import { blockTypes } from '../../proto/block.ts';
import { hapi } from '../../proto/hapi.ts';
import { blockSidecarRecords } from './block-evm.ts';
import type { BlockTransaction, Plain } from './block-reader.ts';
import { toPlain } from './plain.ts';

const contract = (n: bigint) => ({ shardNum: 0n, realmNum: 0n, contractNum: n });
const bytes = (...b: number[]) => new Uint8Array(b);
const seconds = (ts: bigint) => ({ seconds: ts / 1_000_000_000n, nanos: Number(ts % 1_000_000_000n) });

type Kind = 'contractCall' | 'contractCreateInstance' | 'ethereumTransaction' | 'atomic_batch' | 'cryptoTransfer';

interface TxOptions {
  stateChanges?: Plain[];
  trace?: Plain;
  parent?: bigint;
  inner?: boolean;
  /** The EVM result the output carries (contract call, create or Ethereum call by kind). */
  evm?: Plain;
}

function tx(ts: bigint, kind: Kind, options: TxOptions = {}): BlockTransaction {
  const bodyBytes = hapi()
    .TransactionBody.encode(hapi().TransactionBody.fromObject({ [kind]: {} }))
    .finish();
  const evm = options.evm ?? {};
  const outputs =
    kind === 'contractCall'
      ? [{ contract_call: { evm_transaction_result: evm } }]
      : kind === 'contractCreateInstance'
        ? [{ contract_create: { evm_transaction_result: evm } }]
        : kind === 'ethereumTransaction'
          ? [{ ethereum_call: { evm_create_transaction_result: evm } }]
          : [];
  return {
    consensusTimestamp: ts,
    bodyBytes,
    result: options.parent ? { parent_consensus_timestamp: seconds(options.parent) } : {},
    outputs,
    traces: options.trace ? [{ evm_trace_data: options.trace }] : [],
    stateChanges: options.stateChanges ?? [],
    innerOfBatch: options.inner ?? false,
  } as unknown as BlockTransaction;
}

const { SlotValueValue, BytecodeValue } = blockTypes();
const slotWrite = (id: bigint, key: Uint8Array, value: Uint8Array, identical = false) => ({
  state_id: 4,
  map_update: {
    key: { slot_key_key: { contractID: contract(id), key } },
    value: { slot_value_value: SlotValueValue.encode({ value }).finish() },
    ...(identical ? { identical: true } : {}),
  },
});
const slotDelete = (id: bigint, key: Uint8Array) => ({
  state_id: 4,
  map_delete: { key: { slot_key_key: { contractID: contract(id), key } } },
});
const code = (id: bigint, runtime: Uint8Array) => ({
  state_id: 5,
  map_update: {
    key: { contract_id_key: contract(id) },
    value: { bytecode_value: BytecodeValue.encode({ code: runtime }).finish() },
  },
});

describe('EVM sidecar equivalents of block transactions', () => {
  it('attributes each slot of a unit that wrote several contracts to its contract, with its own values', () => {
    const records = blockSidecarRecords([
      tx(100n, 'contractCall', {
        stateChanges: [
          slotWrite(1002n, bytes(1), bytes(0, 3, 0xeb)),
          slotWrite(1003n, bytes(0, 1), bytes(8)),
          slotDelete(1002n, bytes(2)),
          slotWrite(1003n, bytes(7), bytes(7), true), // identical: not a write
          { state_id: 2, map_update: { key: { account_id_key: { accountNum: 2n } }, value: {} } },
        ],
        trace: {
          contract_slot_usages: [
            {
              contract_id: contract(1002n),
              written_keys_are_non_identical_state_changes: true,
              slot_reads: [
                { index: 1, read_value: bytes(5) },
                { index: 0, read_value: bytes(1) },
                { key: bytes(9), read_value: bytes(0, 4) },
              ],
            },
            {
              contract_id: contract(1003n),
              written_keys_are_non_identical_state_changes: true,
              slot_reads: [{ index: 0 }, { index: 1 }], // no second write of 1003: left out
            },
          ],
        },
      }),
      // Not an EVM transaction: no sidecar, whatever its state changes.
      tx(200n, 'cryptoTransfer', { stateChanges: [slotWrite(1002n, bytes(1), bytes(4))] }),
    ]);
    expect(records).toEqual([
      {
        consensusTimestamp: 100n,
        migration: false,
        stateChanges: [
          {
            contract_id: contract(1002n),
            storage_changes: [
              { slot: bytes(2), value_read: bytes(5), value_written: { value: bytes() } },
              { slot: bytes(1), value_read: bytes(1), value_written: { value: bytes(3, 0xeb) } },
              { slot: bytes(9), value_read: bytes(4) },
            ],
          },
          {
            contract_id: contract(1003n),
            storage_changes: [{ slot: bytes(1), value_read: bytes(), value_written: { value: bytes(8) } }],
          },
        ],
      },
    ]);
  });

  it('gives an inner batch transaction the value the next one read, and children their parent unit', () => {
    const usage = (read: number) => ({
      contract_id: contract(1002n),
      written_slot_keys: { keys: [bytes(1)] },
      slot_reads: [{ index: 0, read_value: bytes(read) }],
    });
    const records = blockSidecarRecords([
      // The batch's state changes hold what its inner transactions committed at the end.
      tx(1000n, 'atomic_batch', { stateChanges: [slotWrite(1002n, bytes(1), bytes(30))] }),
      tx(1001n, 'contractCall', { parent: 1000n, inner: true, trace: { contract_slot_usages: [usage(0)] } }),
      tx(1002n, 'contractCall', { parent: 1000n, inner: true, trace: { contract_slot_usages: [usage(10)] } }),
      tx(1003n, 'contractCall', { parent: 1000n, inner: true, trace: { contract_slot_usages: [usage(20)] } }),
      // A child of its own (implicit written keys: the unit's writes of 1003, from the top-level parent).
      tx(2000n, 'contractCall', { stateChanges: [slotWrite(1003n, bytes(6), bytes(60))] }),
      tx(2001n, 'contractCall', {
        parent: 2000n,
        trace: {
          contract_slot_usages: [
            {
              contract_id: contract(1003n),
              written_keys_are_non_identical_state_changes: true,
              slot_reads: [{ index: 0, read_value: bytes(50) }],
            },
          ],
        },
      }),
    ]);
    const written = records.map((r) => [
      r.consensusTimestamp,
      r.stateChanges?.flatMap((c) => c.storage_changes.map((s) => [s.value_read, s.value_written?.value])),
    ]);
    expect(written).toEqual([
      [1001n, [[bytes(), bytes(10)]]],
      [1002n, [[bytes(10), bytes(20)]]],
      [1003n, [[bytes(20), bytes(30)]]],
      [2001n, [[bytes(50), bytes(60)]]],
    ]);
  });

  it('stores the runtime code of a creation with its initcode from the bookends or given explicitly', () => {
    const runtime = bytes(0x60, 0x80);
    const [bookends, explicit, none, ethereum] = blockSidecarRecords([
      tx(300n, 'contractCreateInstance', {
        evm: { contract_id: contract(1003n) },
        stateChanges: [code(1003n, runtime)],
        trace: {
          executed_initcode: { initcode_bookends: { deploy_bytecode: bytes(1, 2), metadata_bytecode: bytes(9) } },
        },
      }),
      tx(400n, 'contractCreateInstance', {
        evm: { contract_id: contract(7n) },
        stateChanges: [code(7n, bytes(6))],
        trace: { executed_initcode: { explicit_initcode: bytes(5) } },
      }),
      // No runtime stored for the created contract: no bytecode.
      tx(500n, 'contractCreateInstance', {
        evm: { contract_id: contract(8n) },
        trace: {
          executed_initcode: { explicit_initcode: bytes(5) },
          contract_actions: [{ call_type: 2, gas: 1n }],
        },
      }),
      // An Ethereum creation records no bytecode, as the reference's block transformer does not.
      tx(600n, 'ethereumTransaction', {
        evm: { contract_id: contract(9n) },
        stateChanges: [code(9n, bytes(6))],
        trace: { contract_actions: [{ call_type: 2, gas: 1n }] },
      }),
    ]);
    expect(bookends?.bytecode).toEqual({
      contract_id: contract(1003n),
      initcode: bytes(1, 2, 0x60, 0x80, 9),
      runtime_bytecode: runtime,
    });
    expect(explicit?.bytecode).toEqual({ contract_id: contract(7n), initcode: bytes(5), runtime_bytecode: bytes(6) });
    expect([none?.consensusTimestamp, none?.bytecode]).toEqual([500n, undefined]);
    expect([ethereum?.consensusTimestamp, ethereum?.bytecode]).toEqual([600n, undefined]);
  });

  it('reads the call trace and slot usages off the wire, and without slot usages records no storage', () => {
    const { BlockItem } = blockTypes();
    // Through the wire, as the block reader sees trace data.
    const trace = toPlain(
      BlockItem.decode(
        BlockItem.encode({
          trace_data: {
            evm_trace_data: {
              // Wire input: ids as numbers.
              contract_actions: [
                {
                  call_type: 1,
                  calling_account: { accountNum: 2 },
                  gas: 50_000,
                  recipient_contract: { contractNum: 1002 },
                  output: bytes(1),
                },
              ],
              contract_slot_usages: [
                {
                  contract_id: { contractNum: 1002 },
                  written_keys_are_non_identical_state_changes: true,
                  slot_reads: [
                    { index: 0, read_value: bytes(7) },
                    { key: bytes(9), read_value: bytes(4) },
                  ],
                },
              ],
            },
          },
        }).finish(),
      ),
    ) as Plain;
    const [record, withoutUsages] = blockSidecarRecords([
      tx(600n, 'contractCall', {
        stateChanges: [slotWrite(1002n, bytes(1), bytes(3, 0xeb)), slotWrite(1002n, bytes(5), bytes(5), true)],
        trace: trace.trace_data.evm_trace_data,
      }),
      tx(700n, 'contractCall', {
        stateChanges: [slotWrite(1002n, bytes(1), bytes(4))],
        trace: { contract_actions: [{ call_type: 1, gas: 1n }] },
      }),
    ]);
    expect(record?.stateChanges).toEqual([
      {
        contract_id: { contractNum: 1002n }, // as on the wire: zero shard and realm are absent
        storage_changes: [
          { slot: bytes(1), value_read: bytes(7), value_written: { value: bytes(3, 0xeb) } },
          { slot: bytes(9), value_read: bytes(4) },
        ],
      },
    ]);
    expect(Uint8Array.from(record?.actions?.[0]?.output ?? [])).toEqual(bytes(1));
    expect(record?.actions).toMatchObject([
      { call_type: 1, calling_account: { accountNum: 2n }, gas: 50_000n, recipient_contract: { contractNum: 1002n } },
    ]);
    expect(withoutUsages?.stateChanges).toBeUndefined();
  });
});
