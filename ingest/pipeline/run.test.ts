import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { rowCounts, rowsOutsideRecordFiles, unbalancedTransactions } from '../testing/database-facts.ts';
import { ingestFixture } from '../testing/fixtures.ts';

const TIMESTAMPED_TABLES = [
  'transaction',
  'transaction_hash',
  'crypto_transfer',
  'token_transfer',
  'contract_result',
  'contract_state_change',
  'file_data',
  'topic_message',
];

async function checkInvariants(db: TestDatabase): Promise<void> {
  expect(await unbalancedTransactions(db.sql)).toEqual([]);
  for (const table of TIMESTAMPED_TABLES) expect(await rowsOutsideRecordFiles(db.sql, table), table).toEqual([]);
  const counts = await db.sql.query(
    `select r.name, r.count::int as count, (select count(*)::int from transaction t
        where t.consensus_timestamp between r.consensus_start and r.consensus_end) as written from record_file r`,
  );
  for (const row of counts.rows) expect(row.written, row.name).toBe(row.count);
}

describe('the v6 record stream fixtures', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('writes both record files with the hashes, indexes and counts of the MANIFEST', async () => {
    const run = await ingestFixture(db.url, 'v6');
    expect([run.files, run.transactions]).toEqual([2, 3]);
    const files = await db.sql.query(
      'select name, index, count, hash, prev_hash, file_hash, consensus_start, consensus_end, sidecar_count, version from record_file order by consensus_end',
    );
    expect(files.rows).toMatchObject([
      {
        name: '2022-07-13T08_46_08.041986003Z.rcd.gz',
        index: '5',
        count: '1',
        hash: 'a6c241fad2c636f68a6aa0da9293245a5ef0ebef345cd139858068ff7998716cefe0fd3afa0d21304725507061975279',
        prev_hash: '13d2594b9e9dbb73dad0cad67a96ad7a0e249af8693aa894003876c9ddd5534b3143e4d785e04fc0c461945a03e85178',
        file_hash: '69a4354de5aeb12fbc989ae086fc291cfc1b61415391b4a46915b32aef722a511c4ceba60ecda72d527cc4866a4d235b',
        consensus_start: '1657701968041986003',
        consensus_end: '1657701968041986003',
        version: 6,
      },
      {
        name: '2022-07-13T08_46_11.304284003Z.rcd.gz',
        index: '6',
        count: '2',
        hash: '3064b824b8b9f9ece011f88a26c030c9f6b822f30fbcabcc7240a220ea42bbdbf305db415a4e41307d0630d5cefe4550',
        prev_hash: 'a6c241fad2c636f68a6aa0da9293245a5ef0ebef345cd139858068ff7998716cefe0fd3afa0d21304725507061975279',
        file_hash: 'ed518c8d05f470d4540db35ea8665ab158f9aeb0bcaa3332d171c1efba119da52c1ee510df599269b022d963d4d1e474',
        consensus_start: '1657701971304284003',
        consensus_end: '1657701971304284004',
        sidecar_count: 1,
      },
    ]);
    await checkInvariants(db);
  });

  it('writes one transaction row per item with its type, payer, parent and hash', async () => {
    const rows = await db.sql.query(
      `select consensus_timestamp::text, type, result, nonce, payer_account_id::text, entity_id::text,
              parent_consensus_timestamp::text, encode(transaction_hash, 'hex') as hash, index
         from transaction order by consensus_timestamp`,
    );
    expect(rows.rows).toEqual([
      expect.objectContaining({
        consensus_timestamp: '1657701968041986003',
        type: 19,
        result: 22,
        entity_id: '121',
        index: 0,
      }),
      expect.objectContaining({
        consensus_timestamp: '1657701971304284003',
        type: 7,
        payer_account_id: '2',
        entity_id: '1002',
        index: 0,
      }),
      expect.objectContaining({
        consensus_timestamp: '1657701971304284004',
        type: 8,
        nonce: 1,
        entity_id: '1003',
        parent_consensus_timestamp: '1657701971304284003',
        index: 1,
      }),
    ]);
    const hashes = await db.sql.query(
      `select encode(hash || hash_suffix, 'hex') as hash from transaction_hash th
         join transaction t using (consensus_timestamp) where encode(t.transaction_hash, 'hex') <> encode(th.hash || th.hash_suffix, 'hex')`,
    );
    expect(hashes.rows).toEqual([]);
  });

  it('joins the sidecar: state changes, current contract state, bytecode and the sidecar row', async () => {
    const changes = await db.sql.query(
      `select contract_id::text, encode(value_written, 'hex') as written from contract_state_change order by contract_id`,
    );
    expect(changes.rows).toEqual([
      { contract_id: '1002', written: '03eb' },
      { contract_id: '1003', written: '08' },
    ]);
    const state = await db.sql.query(
      `select contract_id::text, length(slot) as slot, encode(value, 'hex') as value from contract_state order by 1`,
    );
    expect(state.rows).toEqual([
      { contract_id: '1002', slot: 32, value: '03eb' },
      { contract_id: '1003', slot: 32, value: '08' },
    ]);
    const contract = await db.sql.query(
      'select id::text, initcode is not null as initcode, runtime_bytecode is not null as runtime from contract',
    );
    expect(contract.rows).toEqual([{ id: '1003', initcode: true, runtime: true }]);
    const sidecar = await db.sql.query(`select name, id, types, count, encode(hash, 'hex') as hash from sidecar_file`);
    expect(sidecar.rows).toEqual([
      {
        name: '2022-07-13T08_46_11.304284003Z_01.rcd.gz',
        id: 1,
        types: [1, 3],
        count: 2,
        hash: '1ed54ea01aab5e726a087e94a0dd52c0f49b149d7a773ae71a3dc099f623bcf1840393db68f8db476ab11e6159f030f2',
      },
    ]);
    const entity = await db.sql.query(
      `select type, memo, encode(evm_address, 'hex') as evm, created_timestamp::text from entity where id = 1003`,
    );
    expect(entity.rows).toEqual([
      {
        type: 'CONTRACT',
        memo: 'cellar door',
        evm: '00000000000000000000000000000000000003eb',
        created_timestamp: '1657701971304284004',
      },
    ]);
  });

  it('writes nothing on a second run over the same files', async () => {
    const before = await rowCounts(db.sql);
    const run = await ingestFixture(db.url, 'v6');
    expect(run.files).toBe(0);
    expect(await rowCounts(db.sql)).toEqual(before);
  });
});

describe.each(['v1', 'v2', 'v5'])('the %s record stream fixtures', (folder) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('ingest into rows that keep the invariants, and keep balances as the sum of transfers', async () => {
    const run = await ingestFixture(db.url, folder);
    expect(run.files).toBe(2);
    await checkInvariants(db);
    const indexes = await db.sql.query('select index::int from record_file order by consensus_end');
    expect(indexes.rows).toEqual([{ index: 0 }, { index: 1 }]);
    const balances = await db.sql.query(
      `select e.id from entity e left join (select entity_id, sum(amount) as total from crypto_transfer
          where errata is null group by entity_id) t on t.entity_id = e.id
        where coalesce(e.balance, 0) <> coalesce(t.total, 0)`,
    );
    expect(balances.rows).toEqual([]);
  });
});

describe('two ingest processes on one database', () => {
  it('write each file once', async () => {
    const db = await createTestDatabase();
    try {
      const runs = await Promise.all([ingestFixture(db.url, 'v2'), ingestFixture(db.url, 'v2')]);
      expect(runs[0].files + runs[1].files).toBe(2);
      const counts = await rowCounts(db.sql);
      expect([counts.record_file, counts.transaction]).toEqual([2, 34]);
      await checkInvariants(db);
    } finally {
      await db.drop();
    }
  });
});
