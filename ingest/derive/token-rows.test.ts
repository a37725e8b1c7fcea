import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { ingestItems, rowsOf } from '../testing/ingest-records.ts';

const TREASURY = 1500;
const HOLDER = 1600;
const FUNGIBLE = 5000;

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

const tokenCreate = (at: number, token: number, body: Record<string, unknown> = {}) => ({
  at,
  body: {
    tokenCreation: { name: 'T', symbol: 'T', treasury: { accountNum: TREASURY }, initialSupply: 100, ...body },
  },
  receipt: { tokenID: { tokenNum: token } },
});

describe('token.total_supply', () => {
  it('is 0 after a burn or a wipe to nothing, whose receipt leaves the zero supply off the wire', async () => {
    await ingestItems(db.sql, [
      tokenCreate(100, FUNGIBLE),
      { at: 101, body: { tokenBurn: { token: { tokenNum: FUNGIBLE }, amount: 60 } }, receipt: { newTotalSupply: 40 } },
      { at: 102, body: { tokenWipe: { token: { tokenNum: FUNGIBLE }, account: { accountNum: HOLDER }, amount: 40 } } },
    ]);
    expect(await rowsOf(db.sql, `select total_supply::int from token where token_id = ${FUNGIBLE}`)).toEqual([
      { total_supply: 0 },
    ]);
  });
});
