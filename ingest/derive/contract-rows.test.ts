import { describe, expect, it } from 'vitest';
import { signEthereumCall } from '../../simulator/evm/ethereum-tx.ts';
import { useTestDatabase } from '../../test/harness/test-database.ts';
import type { SidecarRecord } from '../decode/sidecar-file.ts';
import { ingestItems, rowsOf } from '../testing/ingest-records.ts';

const ED25519 = { ed25519: Buffer.alloc(32, 7) };

const db = useTestDatabase();

const contractCreate = (at: number, contract: number, body: Record<string, unknown> = {}) => ({
  at,
  body: { contractCreateInstance: { gas: 100_000, initcode: Buffer.from('6080', 'hex'), ...body } },
  receipt: { contractID: { contractNum: contract } },
  record: { contractCreateResult: { contractID: { contractNum: contract }, gasUsed: 50_000 } },
});

describe('the entity of a ContractCreate', () => {
  it('is keyed to the contract itself, Key{contractID}, without an admin key, with no public key', async () => {
    await ingestItems(db.sql, [contractCreate(100, 2000), contractCreate(101, 2001, { adminKey: ED25519 })]);
    expect(
      await rowsOf(
        db.sql,
        `select id::int, encode(key, 'hex') as key, public_key from entity where id in (2000, 2001) order by id`,
      ),
    ).toEqual([
      // Key{contractID: ContractID{contractNum: 2000}}: shard and realm 0 are left off the wire.
      { id: 2000, key: '0a0318d00f', public_key: null },
      { id: 2001, key: `1220${'07'.repeat(32)}`, public_key: '07'.repeat(32) },
    ]);
  });
});

describe('a nonce a record reports for a contract its child record creates', () => {
  it('folds into the creation: one entity row with the nonce, no history row', async () => {
    await ingestItems(db.sql, [
      {
        at: 200,
        body: { contractCall: { contractID: { contractNum: 2000 }, gas: 90_000 } },
        record: {
          contractCallResult: {
            contractID: { contractNum: 2000 },
            contract_nonces: [{ contract_id: { contractNum: 2100 }, nonce: 1 }],
          },
        },
      },
      { ...contractCreate(200, 2100), nanos: 1, nonce: 1, parent: { at: 200 } },
    ]);
    expect(
      await rowsOf(
        db.sql,
        `select type::text, ethereum_nonce::int, created_timestamp::text from entity where id = 2100`,
      ),
    ).toEqual([{ type: 'CONTRACT', ethereum_nonce: 1, created_timestamp: `200${'0'.repeat(8)}1` }]);
    expect(await rowsOf(db.sql, 'select count(*)::int as n from entity_history where id = 2100')).toEqual([{ n: 0 }]);
  });
});

const sidecars = (records: SidecarRecord[]) => [{ hash: new Uint8Array(48), size: 0, records }];
const ns = (seconds: number, nanos = 0) => BigInt(seconds) * 1_000_000_000n + BigInt(nanos);

describe('the contract row of a created contract', () => {
  it("takes the runtime bytecode of its sidecar and, in a child creation, the parent's init code; a failed create has none", async () => {
    const initcode = Buffer.from('60806040', 'hex');
    await ingestItems(
      db.sql,
      [
        contractCreate(300, 2200, { initcode }),
        { ...contractCreate(300, 2201, { initcode: undefined }), nanos: 1, nonce: 1, parent: { at: 300 } },
        { ...contractCreate(300, 2203, { initcode: undefined }), nanos: 2, nonce: 2, parent: { at: 300 } },
        { ...contractCreate(301, 2202), status: 33, receipt: {} },
      ],
      {
        sidecars: sidecars([
          {
            consensusTimestamp: ns(300, 1),
            migration: false,
            bytecode: {
              contract_id: { contractNum: 2201n },
              initcode: Buffer.from('6080', 'hex'),
              runtime_bytecode: Buffer.from('6001', 'hex'),
            },
          },
          {
            consensusTimestamp: ns(301),
            migration: false,
            bytecode: { contract_id: { contractNum: 2202n }, initcode, runtime_bytecode: Buffer.from('6002', 'hex') },
          },
        ]),
      },
    );
    expect(
      await rowsOf(
        db.sql,
        `select id::int, encode(initcode, 'hex') as initcode, encode(runtime_bytecode, 'hex') as runtime
           from contract where id between 2200 and 2203 order by id`,
      ),
    ).toEqual([
      { id: 2200, initcode: '60806040', runtime: null },
      { id: 2201, initcode: '6080', runtime: '6001' },
      { id: 2203, initcode: '60806040', runtime: null },
    ]);
  });

  it('is given runtime bytecode only by a migration sidecar, which makes the entity a contract', async () => {
    await ingestItems(db.sql, [
      { at: 400, body: { cryptoCreateAccount: { key: ED25519 } }, receipt: { accountID: { accountNum: 2300 } } },
    ]);
    await ingestItems(db.sql, [{ at: 401, body: { cryptoTransfer: {} } }], {
      sidecars: sidecars([
        {
          consensusTimestamp: ns(401),
          migration: true,
          bytecode: { contract_id: { contractNum: 2300n }, runtime_bytecode: Buffer.from('6003', 'hex') },
        },
      ]),
    });
    expect(
      await rowsOf(db.sql, `select initcode, encode(runtime_bytecode, 'hex') as runtime from contract where id = 2300`),
    ).toEqual([{ initcode: null, runtime: '6003' }]);
    expect(await rowsOf(db.sql, 'select type::text from entity where id = 2300')).toEqual([{ type: 'CONTRACT' }]);
  });
});

describe('a contract another contract created', () => {
  it("is written from its creator's result only before services 0.23, with the creating body's memo and file", async () => {
    const created = (at: number, contract: number, child: number) => ({
      ...contractCreate(at, contract, { memo: 'factory', fileID: { fileNum: 1500 }, initcode: undefined }),
      record: {
        contractCreateResult: {
          contractID: { contractNum: contract },
          createdContractIDs: [{ contractNum: contract }, { contractNum: child }],
        },
      },
    });
    await ingestItems(db.sql, [created(500, 2400, 2401)], { hapiMinor: 22 });
    await ingestItems(db.sql, [created(501, 2402, 2403)], { hapiMinor: 23 });
    expect(
      await rowsOf(
        db.sql,
        `select e.id::int, e.memo, e.balance::int, c.file_id::int from entity e left join contract c on c.id = e.id
          where e.id between 2401 and 2403 order by e.id`,
      ),
    ).toEqual([
      { id: 2401, memo: 'factory', balance: 0, file_id: 1500 },
      { id: 2402, memo: 'factory', balance: 0, file_id: 1500 },
    ]);
  });
});

describe('contract_transaction', () => {
  it("lists the contract, the payer and the logs' contracts (not the sender), and 0 for a create that failed", async () => {
    await ingestItems(db.sql, [
      {
        at: 600,
        body: { contractCall: { contractID: { contractNum: 2000 }, gas: 1 } },
        receipt: { contractID: { contractNum: 2000 } },
        record: {
          contractCallResult: {
            contractID: { contractNum: 2000 },
            sender_id: { accountNum: 1777 },
            logInfo: [{ contractID: { contractNum: 2050 }, data: Buffer.from('01', 'hex') }],
          },
        },
      },
      { ...contractCreate(601, 0), status: 33, receipt: {} },
    ]);
    expect(
      await rowsOf(
        db.sql,
        `select consensus_timestamp::text as at, entity_id::int, contract_ids::int[] as ids from contract_transaction
          where consensus_timestamp >= ${ns(600)} order by consensus_timestamp, entity_id`,
      ),
    ).toEqual([
      { at: `${ns(600)}`, entity_id: 1001, ids: [2000, 2050, 1001] },
      { at: `${ns(600)}`, entity_id: 2000, ids: [2000, 2050, 1001] },
      { at: `${ns(600)}`, entity_id: 2050, ids: [2000, 2050, 1001] },
      { at: `${ns(601)}`, entity_id: 0, ids: [0, 1001] },
      { at: `${ns(601)}`, entity_id: 1001, ids: [0, 1001] },
    ]);
  });
});

describe('the contract_result of a block stream Ethereum transaction', () => {
  it('takes amount, gas limit and parameters from the signed transaction, its result having no call context', async () => {
    const data = signEthereumCall(
      {
        type: 2,
        nonce: 1n,
        gasPrice: 10n,
        gasLimit: 70_000n,
        to: new Uint8Array(20).fill(1),
        value: 5n,
        data: Uint8Array.of(0xbe, 0xef),
      },
      new Uint8Array(32).fill(0x22),
    ).raw;
    await ingestItems(db.sql, [
      {
        at: 700,
        blockStream: true,
        body: { ethereumTransaction: { ethereum_data: data } },
        record: { contractCallResult: { contractID: { contractNum: 2000 }, gasUsed: 21_000 } },
      },
    ]);
    expect(
      await rowsOf(
        db.sql,
        `select amount::int, gas_limit::int, encode(function_parameters, 'hex') as parameters from contract_result
          where consensus_timestamp = ${ns(700)}`,
      ),
    ).toEqual([{ amount: 5, gas_limit: 70_000, parameters: 'beef' }]);
  });
});
