import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/harness/test-database.ts';
import { ingestItems, rowsOf } from '../testing/ingest-records.ts';

const OWNER = 1600;
const HOOK_CONTRACT = 2000;
const NS = 1_000_000_000n;
const hex = (text: string) => Buffer.from(text, 'hex');

const db = useTestDatabase();

describe('hooks', () => {
  it('are created with their storage, the last value of a slot winning and mapping entries at their derived slot', async () => {
    await ingestItems(db.sql, [
      {
        at: 100,
        body: {
          cryptoCreateAccount: {
            key: { ed25519: Buffer.alloc(32, 1) },
            hook_creation_details: [
              {
                hook_id: 1,
                evm_hook: {
                  spec: { contract_id: { contractNum: HOOK_CONTRACT } },
                  storage_updates: [
                    { storage_slot: { key: hex('01'), value: hex('0005') } },
                    { storage_slot: { key: hex('01'), value: hex('06') } },
                    { mapping_entries: { mapping_slot: hex('02'), entries: [{ key: hex('aa'), value: hex('09') }] } },
                  ],
                },
              },
            ],
          },
        },
        receipt: { accountID: { accountNum: OWNER } },
      },
    ]);
    expect(
      await rowsOf(
        db.sql,
        'select hook_id::int, owner_id::int, contract_id::int, deleted, created_timestamp::text, type::text from hook',
      ),
    ).toEqual([
      {
        hook_id: 1,
        owner_id: OWNER,
        contract_id: HOOK_CONTRACT,
        deleted: false,
        created_timestamp: `${100n * NS}`,
        type: 'EVM',
      },
    ]);
    const slot = Buffer.from(
      keccak_256(Buffer.concat([Buffer.alloc(31), hex('aa'), Buffer.alloc(31), hex('02')])),
    ).toString('hex');
    expect(
      await rowsOf(
        db.sql,
        `select encode(key, 'hex') as key, encode(value_written, 'hex') as written from hook_storage_change order by key`,
      ),
    ).toEqual(
      [
        { key: '01', written: '06' },
        { key: slot, written: '09' },
      ].sort((a, b) => a.key.localeCompare(b.key)),
    );
    expect(
      await rowsOf(
        db.sql,
        `select encode(key, 'hex') as key, encode(value, 'hex') as value, deleted from hook_storage order by key`,
      ),
    ).toEqual(
      [
        { key: `${'00'.repeat(31)}01`, value: '06', deleted: false },
        { key: slot, value: '09', deleted: false },
      ].sort((a, b) => a.key.localeCompare(b.key)),
    );
  });

  it('clear a slot written empty by a HookStore, and are deleted by an update, the hook kept in history', async () => {
    await ingestItems(db.sql, [
      {
        at: 200,
        body: {
          hook_store: {
            hook_id: { entity_id: { account_id: { accountNum: OWNER } }, hook_id: 1 },
            storage_updates: [{ storage_slot: { key: hex('01') } }],
          },
        },
      },
      { at: 201, body: { cryptoUpdateAccount: { accountIDToUpdate: { accountNum: OWNER }, hook_ids_to_delete: [1] } } },
    ]);
    expect(
      await rowsOf(
        db.sql,
        `select deleted, modified_timestamp::text from hook_storage where key = decode('${'00'.repeat(31)}01', 'hex')`,
      ),
    ).toEqual([{ deleted: true, modified_timestamp: `${200n * NS}` }]);
    expect(
      await rowsOf(db.sql, `select deleted from hook_storage_change where consensus_timestamp = ${200n * NS}`),
    ).toEqual([{ deleted: true }]);
    expect(await rowsOf(db.sql, 'select deleted, contract_id::int from hook')).toEqual([
      { deleted: true, contract_id: HOOK_CONTRACT },
    ]);
    expect(await rowsOf(db.sql, 'select deleted from hook_history')).toEqual([{ deleted: false }]);
  });

  it("take a hook execution's storage changes of the hook contract, not as contract state", async () => {
    await ingestItems(
      db.sql,
      [
        {
          at: 300,
          body: {
            cryptoTransfer: {
              transfers: {
                accountAmounts: [
                  { accountID: { accountNum: OWNER }, amount: -5, pre_tx_allowance_hook: { hook_id: 4 } },
                  { accountID: { accountNum: 1700 }, amount: 5 },
                ],
              },
            },
          },
        },
        {
          at: 300,
          nanos: 1,
          nonce: 1,
          parent: { at: 300 },
          body: { contractCall: { contractID: { contractNum: 365 }, gas: 1 } },
          record: { contractCallResult: { contractID: { contractNum: 365 } } },
        },
      ],
      {
        sidecars: [
          {
            hash: new Uint8Array(48),
            size: 0,
            records: [
              {
                consensusTimestamp: 300n * NS + 1n,
                migration: false,
                stateChanges: [
                  {
                    contract_id: { contractNum: 365n },
                    storage_changes: [{ slot: hex('03'), value_read: hex('00'), value_written: { value: hex('07') } }],
                  },
                ],
              },
            ],
          },
        ],
      },
    );
    expect(
      await rowsOf(
        db.sql,
        `select hook_id::int, owner_id::int, encode(key, 'hex') as key, encode(value_written, 'hex') as written
           from hook_storage_change where consensus_timestamp = ${300n * NS + 1n}`,
      ),
    ).toEqual([{ hook_id: 4, owner_id: OWNER, key: '03', written: '07' }]);
    expect(await rowsOf(db.sql, 'select count(*)::int as n from contract_state_change')).toEqual([{ n: 0 }]);
  });
});
