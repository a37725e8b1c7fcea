import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { ingestItems, rowsOf } from '../testing/ingest-records.ts';

const ED25519 = { ed25519: Buffer.alloc(32, 7) };

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

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
