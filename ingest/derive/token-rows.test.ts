import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/harness/test-database.ts';
import { ingestItems, rowsOf } from '../testing/ingest-records.ts';

const TREASURY = 1500;
const HOLDER = 1600;
const FUNGIBLE = 5000;

const db = useTestDatabase();

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

describe("an NFT collection's treasury change", () => {
  it('moves the NFTs and the balance of the old treasury to the new one', async () => {
    const COLLECTION = 5100;
    const NEW_TREASURY = 1700;
    const nftList = (transfers: { from: number; to: number; serial: number }[]) => [
      {
        token: { tokenNum: COLLECTION },
        nftTransfers: transfers.map((t) => ({
          senderAccountID: { accountNum: t.from },
          receiverAccountID: { accountNum: t.to },
          serialNumber: t.serial,
        })),
      },
    ];
    await ingestItems(db.sql, [
      tokenCreate(400, COLLECTION, { tokenType: 1, initialSupply: 0 }),
      {
        at: 401,
        body: { tokenMint: { token: { tokenNum: COLLECTION }, metadata: [Buffer.from('a'), Buffer.from('b')] } },
        receipt: { newTotalSupply: 2, serialNumbers: [1, 2] },
        record: {
          tokenTransferLists: nftList([
            { from: 0, to: TREASURY, serial: 1 },
            { from: 0, to: TREASURY, serial: 2 },
          ]),
        },
      },
    ]);
    await ingestItems(db.sql, [
      {
        at: 500,
        body: { tokenAssociate: { account: { accountNum: NEW_TREASURY }, tokens: [{ tokenNum: COLLECTION }] } },
      },
      {
        at: 501,
        body: { tokenUpdate: { token: { tokenNum: COLLECTION }, treasury: { accountNum: NEW_TREASURY } } },
        record: { tokenTransferLists: nftList([{ from: TREASURY, to: NEW_TREASURY, serial: -1 }]) },
      },
      {
        at: 502,
        body: { cryptoTransfer: {} },
        record: { tokenTransferLists: nftList([{ from: NEW_TREASURY, to: TREASURY, serial: 2 }]) },
      },
    ]);
    expect(
      await rowsOf(
        db.sql,
        `select serial_number::int as serial, account_id::int as owner, lower(timestamp_range)::text as since
           from nft where token_id = ${COLLECTION} order by serial_number`,
      ),
    ).toEqual([
      { serial: 1, owner: NEW_TREASURY, since: `501${'0'.repeat(9)}` },
      { serial: 2, owner: TREASURY, since: `502${'0'.repeat(9)}` },
    ]);
    expect(
      await rowsOf(
        db.sql,
        `select serial_number::int as serial, account_id::int as owner, timestamp_range::text as range
           from nft_history where token_id = ${COLLECTION} order by serial_number, timestamp_range`,
      ),
    ).toEqual([
      { serial: 1, owner: TREASURY, range: `[401${'0'.repeat(9)},501${'0'.repeat(9)})` },
      { serial: 2, owner: TREASURY, range: `[401${'0'.repeat(9)},501${'0'.repeat(9)})` },
      { serial: 2, owner: NEW_TREASURY, range: `[501${'0'.repeat(9)},502${'0'.repeat(9)})` },
    ]);
    expect(
      await rowsOf(
        db.sql,
        `select account_id::int as account, balance::int from token_account where token_id = ${COLLECTION}
          order by account_id`,
      ),
    ).toEqual([
      { account: TREASURY, balance: 1 },
      { account: NEW_TREASURY, balance: 1 },
    ]);
  });
});

describe('custom_fee of a token', () => {
  it('writes every field of each fee, null where unset, and no row for a schedule of unknown fees', async () => {
    await ingestItems(db.sql, [
      tokenCreate(600, 5200, {
        custom_fees: [
          { fixed_fee: { amount: 1 }, fee_collector_account_id: { accountNum: 98 } },
          {
            fractional_fee: { fractional_amount: { numerator: 1, denominator: 10 }, minimum_amount: 2 },
            fee_collector_account_id: { accountNum: 98 },
          },
        ],
      }),
      { at: 601, body: { token_fee_schedule_update: { token_id: { tokenNum: 5200 }, custom_fees: [{}] } } },
    ]);
    expect(
      await rowsOf(db.sql, 'select fixed_fees, fractional_fees, royalty_fees from custom_fee where entity_id = 5200'),
    ).toEqual([
      {
        fixed_fees: [
          { all_collectors_are_exempt: false, amount: 1, collector_account_id: 98, denominating_token_id: null },
        ],
        fractional_fees: [
          {
            all_collectors_are_exempt: false,
            collector_account_id: 98,
            denominator: 10,
            maximum_amount: null,
            minimum_amount: 2,
            net_of_transfers: false,
            numerator: 1,
          },
        ],
        royalty_fees: null,
      },
    ]);
  });
});

describe('token_airdrop', () => {
  it('takes pending airdrops from a TokenAirdrop record only', async () => {
    const pending = {
      pending_airdrop_id: {
        sender_id: { accountNum: TREASURY },
        receiver_id: { accountNum: 1690 },
        fungible_token_type: { tokenNum: FUNGIBLE },
      },
      pending_airdrop_value: { amount: 1 },
    };
    await ingestItems(db.sql, [{ at: 700, body: { cryptoTransfer: {} }, record: { new_pending_airdrops: [pending] } }]);
    expect(
      await rowsOf(db.sql, 'select count(*)::int as n from token_airdrop where receiver_account_id = 1690'),
    ).toEqual([{ n: 0 }]);
  });
});

describe('token_account.freeze_status and kyc_status', () => {
  it("are NULL for an association that names none (readers take the token's), and a new association resets them", async () => {
    const KEYED = 5300;
    const key = { ed25519: Buffer.alloc(32, 8) };
    await ingestItems(db.sql, [
      tokenCreate(800, KEYED, { freezeKey: key, kycKey: key, freezeDefault: true }),
      { at: 801, body: { tokenAssociate: { account: { accountNum: 1650 }, tokens: [{ tokenNum: KEYED }] } } },
      { at: 802, body: { tokenAssociate: { account: { accountNum: 1651 }, tokens: [{ tokenNum: KEYED }] } } },
      { at: 803, body: { tokenFreeze: { token: { tokenNum: KEYED }, account: { accountNum: 1651 } } } },
      { at: 804, body: { tokenDissociate: { account: { accountNum: 1651 }, tokens: [{ tokenNum: KEYED }] } } },
      { at: 805, body: { tokenAssociate: { account: { accountNum: 1651 }, tokens: [{ tokenNum: KEYED }] } } },
      {
        at: 806,
        body: { cryptoTransfer: {} },
        record: {
          tokenTransferLists: [
            { token: { tokenNum: KEYED }, transfers: [{ accountID: { accountNum: 1652 }, amount: 1 }] },
          ],
        },
      },
    ]);
    expect(
      await rowsOf(
        db.sql,
        `select account_id::int as account, freeze_status, kyc_status from token_account where token_id = ${KEYED}
          order by account_id`,
      ),
    ).toEqual([
      { account: TREASURY, freeze_status: 2, kyc_status: 1 },
      { account: 1650, freeze_status: null, kyc_status: null },
      { account: 1651, freeze_status: null, kyc_status: null },
      { account: 1652, freeze_status: null, kyc_status: null },
    ]);
  });
});
