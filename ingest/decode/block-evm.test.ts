import { describe, expect, it } from 'vitest';
import { blockTypes } from '../../proto/block.ts';
import { blockSidecarRecords } from './block-evm.ts';
import type { BlockTransaction, Plain } from './block-reader.ts';
import { toPlain } from './plain.ts';

const contract = (n: bigint) => ({ shardNum: 0n, realmNum: 0n, contractNum: n });
const bytes = (...b: number[]) => new Uint8Array(b);

function tx(ts: bigint, stateChanges: BlockTransaction['stateChanges'], traces: BlockTransaction['traces'] = []) {
  return { consensusTimestamp: ts, stateChanges, traces } as unknown as BlockTransaction;
}

describe('EVM sidecar equivalents of block transactions', () => {
  const { SlotValueValue, BytecodeValue } = blockTypes();
  const slotValue = (v: Uint8Array) => SlotValueValue.encode({ value: v }).finish();

  it('turns storage map updates and deletes into written slots, per contract, at the transaction', () => {
    const records = blockSidecarRecords([
      tx(100n, [
        {
          state_id: 4,
          map_update: {
            key: { slot_key_key: { contractID: contract(1002n), key: bytes(1) } },
            value: { slot_value_value: slotValue(bytes(3, 0xeb)) },
          },
        },
        { state_id: 4, map_delete: { key: { slot_key_key: { contractID: contract(1002n), key: bytes(2) } } } },
        {
          state_id: 4,
          map_update: {
            key: { slot_key_key: { contractID: contract(1003n) } },
            value: { slot_value_value: slotValue(bytes(8)) },
          },
        },
        // Not storage: ignored.
        { state_id: 2, map_update: { key: { account_id_key: { accountNum: 2n } }, value: {} } },
      ]),
      tx(200n, [{ state_id: 2, map_update: { key: { account_id_key: { accountNum: 2n } }, value: {} } }]),
    ]);
    expect(records).toEqual([
      {
        consensusTimestamp: 100n,
        migration: false,
        stateChanges: [
          {
            contract_id: contract(1002n),
            storage_changes: [
              { slot: bytes(1), value_written: { value: bytes(3, 0xeb) } },
              { slot: bytes(2), value_written: { value: bytes() } },
            ],
          },
          { contract_id: contract(1003n), storage_changes: [{ slot: bytes(), value_written: { value: bytes(8) } }] },
        ],
      },
    ]);
  });

  it('rebuilds the initcode of a creation from its bookends and the stored runtime code', () => {
    const runtime = bytes(0x60, 0x80);
    const records = blockSidecarRecords([
      tx(
        300n,
        [
          {
            state_id: 5,
            map_update: {
              key: { contract_id_key: contract(1003n) },
              value: { bytecode_value: BytecodeValue.encode({ code: runtime }).finish() },
            },
          },
        ],
        [
          {
            evm_trace_data: {
              executed_initcode: {
                contract_id: contract(1003n),
                initcode_bookends: { deploy_bytecode: bytes(1, 2), metadata_bytecode: bytes(9) },
              },
            },
          },
        ],
      ),
    ]);
    expect(records).toEqual([
      {
        consensusTimestamp: 300n,
        migration: false,
        bytecode: { contract_id: contract(1003n), initcode: bytes(1, 2, 0x60, 0x80, 9), runtime_bytecode: runtime },
      },
    ]);
  });

  it('keeps explicit initcode, and stored code without a traced creation', () => {
    const explicit = blockSidecarRecords([
      tx(
        400n,
        [],
        [{ evm_trace_data: { executed_initcode: { contract_id: contract(7n), explicit_initcode: bytes(5) } } }],
      ),
    ]);
    expect(explicit[0]?.bytecode).toEqual({ contract_id: contract(7n), initcode: bytes(5) });
    const stored = blockSidecarRecords([
      tx(500n, [
        {
          state_id: 5,
          map_update: {
            key: { contract_id_key: contract(8n) },
            value: { bytecode_value: BytecodeValue.encode({ code: bytes(6) }).finish() },
          },
        },
      ]),
    ]);
    expect(stored[0]?.bytecode).toEqual({ contract_id: contract(8n), runtime_bytecode: bytes(6) });
  });

  it('adds the values read and the call trace from the trace data, as the sidecars had them', () => {
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
    const slot = (key: Uint8Array, value: Uint8Array, identical = false) => ({
      state_id: 4,
      map_update: {
        key: { slot_key_key: { contractID: contract(1002n), key } },
        value: { slot_value_value: slotValue(value) },
        ...(identical ? { identical: true } : {}),
      },
    });
    const [record] = blockSidecarRecords([
      tx(600n, [slot(bytes(1), bytes(3, 0xeb)), slot(bytes(5), bytes(5), true)], [trace.trace_data]),
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
      {
        call_type: 1,
        calling_account: { accountNum: 2n },
        gas: 50_000n,
        recipient_contract: { contractNum: 1002n },
      },
    ]);
  });
});
