import { describe, expect, it } from 'vitest';
import type { SidecarRecord } from '../decode/sidecar-file.ts';
import { FileRows } from './file-rows.ts';
import { deriveSidecarRecords, sidecarFacts } from './sidecar.ts';

const hex = (bytes: unknown) => (bytes === null ? null : Buffer.from(bytes as Uint8Array).toString('hex'));
const contract = { contractNum: 1200n };

function derive(records: SidecarRecord[]) {
  const rows = new FileRows();
  deriveSidecarRecords(rows, records, () => 1001n);
  return rows;
}

describe('sidecar records', () => {
  it('write state changes with an empty value for a written zero and NULL for a slot only read', () => {
    const rows = derive([
      {
        consensusTimestamp: 10n,
        migration: false,
        stateChanges: [
          {
            contract_id: contract,
            storage_changes: [
              { slot: Uint8Array.of(1), value_read: Uint8Array.of(5), value_written: {} },
              { slot: Uint8Array.of(2), value_read: Uint8Array.of(6) },
            ],
          },
        ],
      },
    ]);
    const changes = rows.rows('contract_state_change');
    expect(changes.map((c) => [hex(c.slot), hex(c.value_read), hex(c.value_written)])).toEqual([
      ['01', '05', ''],
      ['02', '06', null],
    ]);
    // Only the write changes the current state, under the slot padded to 32 bytes.
    const state = rows.replaces.get('contract_state') ?? [];
    expect(state.map((s) => [hex(s.slot), hex(s.value)])).toEqual([[`${'00'.repeat(31)}01`, '']]);
  });

  it('take the current value of a slot a migration record only read', () => {
    const rows = derive([
      {
        consensusTimestamp: 11n,
        migration: true,
        stateChanges: [
          { contract_id: contract, storage_changes: [{ slot: Uint8Array.of(3), value_read: Uint8Array.of(9) }] },
        ],
      },
    ]);
    const state = rows.replaces.get('contract_state') ?? [];
    expect(state.map((s) => [hex(s.slot), hex(s.value)])).toEqual([[`${'00'.repeat(31)}03`, '09']]);
    expect(rows.rows('contract_state_change')[0]?.migration).toBe(true);
  });

  it('write actions with empty input bytes when the action has none, and the result data and its kind', () => {
    const rows = derive([
      {
        consensusTimestamp: 12n,
        migration: false,
        actions: [
          {
            call_depth: 0,
            call_type: 2,
            calling_account: { accountNum: 1001n },
            gas: 9n,
            gas_used: 7n,
            output: Uint8Array.of(1),
          },
          { call_depth: 1, call_type: 1, calling_contract: contract, revert_reason: Uint8Array.of(2) },
        ],
      },
    ]);
    const actions = rows.rows('contract_action');
    expect(actions.map((a) => [hex(a.input), a.caller, a.caller_type, a.result_data_type, hex(a.result_data)])).toEqual(
      [
        ['', 1001n, 'ACCOUNT', 11, '01'],
        ['', 1200n, 'CONTRACT', 12, '02'],
      ],
    );
    expect(
      sidecarFacts([
        { consensusTimestamp: 12n, migration: false, actions: [{ call_depth: 0, call_type: 2, gas_used: 7n }] },
      ]).get(12n),
    ).toEqual({
      topLevelGasUsed: 7n,
      creation: true,
      initcode: undefined,
      bytecodes: [],
      stateContracts: [],
      hookStateChanges: [],
    });
  });
});
