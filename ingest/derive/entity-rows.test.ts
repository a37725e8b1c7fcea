import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { ingestItems, rowsOf } from '../testing/ingest-records.ts';

const ACCOUNT = 1700;
const TOKEN = 1800;
const ed25519 = (fill: number) => ({ ed25519: Buffer.alloc(32, fill) });
/** Two keys: no single primitive key to search by. */
const TWO_KEYS = { keyList: { keys: [ed25519(1), ed25519(2)] } };

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

describe('entity.public_key', () => {
  it('is cleared by an update to a key that does not reduce to one primitive key', async () => {
    await ingestItems(db.sql, [
      { at: 100, body: { cryptoCreateAccount: { key: ed25519(9) } }, receipt: { accountID: { accountNum: ACCOUNT } } },
      {
        at: 101,
        body: { tokenCreation: { name: 'T', symbol: 'T', treasury: { accountNum: ACCOUNT }, adminKey: ed25519(9) } },
        receipt: { tokenID: { tokenNum: TOKEN } },
      },
    ]);
    await ingestItems(db.sql, [
      { at: 200, body: { cryptoUpdateAccount: { accountIDToUpdate: { accountNum: ACCOUNT }, key: TWO_KEYS } } },
      { at: 201, body: { tokenUpdate: { token: { tokenNum: TOKEN }, adminKey: TWO_KEYS } } },
    ]);
    expect(
      await rowsOf(db.sql, `select id::int, public_key from entity where id in (${ACCOUNT}, ${TOKEN}) order by id`),
    ).toEqual([
      { id: ACCOUNT, public_key: null },
      { id: TOKEN, public_key: null },
    ]);
    expect(await rowsOf(db.sql, `select id::int, public_key from entity_history order by id`)).toEqual([
      { id: ACCOUNT, public_key: '09'.repeat(32) },
      { id: TOKEN, public_key: '09'.repeat(32) },
    ]);
  });
});
