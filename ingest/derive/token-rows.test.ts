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

describe('the token_account row of a TokenClaimAirdrop', () => {
  it('is a manual association with the claimed amount as its balance', async () => {
    const RECEIVER = 1601;
    const pending = {
      sender_id: { accountNum: TREASURY },
      receiver_id: { accountNum: RECEIVER },
      fungible_token_type: { tokenNum: FUNGIBLE },
    };
    await ingestItems(db.sql, [
      {
        at: 300,
        body: { tokenAirdrop: {} },
        record: { new_pending_airdrops: [{ pending_airdrop_id: pending, pending_airdrop_value: { amount: 7 } }] },
      },
      {
        at: 301,
        body: { tokenClaimAirdrop: { pending_airdrops: [pending] } },
        record: {
          tokenTransferLists: [
            {
              token: { tokenNum: FUNGIBLE },
              transfers: [
                { accountID: { accountNum: TREASURY }, amount: -7 },
                { accountID: { accountNum: RECEIVER }, amount: 7 },
              ],
            },
          ],
        },
      },
    ]);
    expect(
      await rowsOf(
        db.sql,
        `select associated, automatic_association, balance::int, balance_timestamp::text, created_timestamp::text
           from token_account where account_id = ${RECEIVER}`,
      ),
    ).toEqual([
      {
        associated: true,
        automatic_association: false,
        balance: 7,
        balance_timestamp: `301${'0'.repeat(9)}`,
        created_timestamp: `301${'0'.repeat(9)}`,
      },
    ]);
  });
});
