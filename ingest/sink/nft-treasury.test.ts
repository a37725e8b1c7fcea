import { beforeAll, describe, expect, it } from 'vitest';
import { insertRow } from '../../test/harness/factories.ts';
import { useTestDatabase } from '../../test/harness/test-database.ts';
import { type ItemSpec, ingestItems } from '../testing/ingest-records.ts';

const NFT = 5001;
const OLD_TREASURY = 1500;
const NEW_TREASURY = 1600;
const HOLDER = 1700;

/** A TokenUpdate naming a new treasury, recorded as the node records it: one NFT transfer of serial -1. */
const treasuryUpdate = (at: number): ItemSpec => ({
  at,
  payer: 2,
  body: { tokenUpdate: { token: { tokenNum: NFT }, treasury: { accountNum: NEW_TREASURY } } },
  record: {
    tokenTransferLists: [
      {
        token: { tokenNum: NFT },
        nftTransfers: [
          {
            senderAccountID: { accountNum: OLD_TREASURY },
            receiverAccountID: { accountNum: NEW_TREASURY },
            serialNumber: -1,
          },
        ],
      },
    ],
  },
});

/** A TokenUpdateNfts of serial 1 later in the same file. */
const metadataUpdate = (at: number): ItemSpec => ({
  at,
  payer: 2,
  body: {
    token_update_nfts: { token: { tokenNum: NFT }, serial_numbers: [1], metadata: { value: Buffer.from('new') } },
  },
});

const db = useTestDatabase();
const query = async (text: string) => (await db.sql.query(text)).rows as Record<string, unknown>[];

beforeAll(async () => {
  await insertRow(db.sql, 'token', {
    decimals: 0,
    initial_supply: 0,
    name: 'art',
    symbol: 'A',
    treasury_account_id: OLD_TREASURY,
    freeze_status: 0,
    kyc_status: 0,
    timestamp_range: '[1,)',
    created_timestamp: 1,
    token_id: NFT,
    total_supply: 3,
    type: 'NON_FUNGIBLE_UNIQUE',
  });
  for (const [account, balance] of [
    [OLD_TREASURY, 2],
    [NEW_TREASURY, 0],
    [HOLDER, 1],
  ]) {
    await insertRow(db.sql, 'token_account', {
      account_id: account,
      token_id: NFT,
      associated: true,
      automatic_association: false,
      balance,
      balance_timestamp: 2,
      created_timestamp: 2,
      freeze_status: 0,
      kyc_status: 0,
      timestamp_range: '[2,)',
    });
  }
  for (const [serial, owner] of [
    [1, OLD_TREASURY],
    [2, OLD_TREASURY],
    [3, HOLDER],
  ]) {
    const nft = { token_id: NFT, serial_number: serial, account_id: owner, deleted: false, created_timestamp: 2 };
    await insertRow(db.sql, 'nft', { ...nft, metadata: Buffer.alloc(0), spender: 1800, timestamp_range: '[2,)' });
  }
  await ingestItems(db.sql, [treasuryUpdate(100), metadataUpdate(101)]);
}, 60_000);

describe("an NFT collection's treasury change", () => {
  it("hands the old treasury's serials to the new treasury, ending their approvals, and keeps the others' as they were", async () => {
    expect(
      await query('select serial_number::int, account_id::int, spender::int from nft order by serial_number'),
    ).toEqual([
      { serial_number: 1, account_id: NEW_TREASURY, spender: null },
      { serial_number: 2, account_id: NEW_TREASURY, spender: null },
      { serial_number: 3, account_id: HOLDER, spender: 1800 },
    ]);
  });

  it('keeps the history in order when a later change of the same file touched a serial the new treasury took', async () => {
    const history = await query(
      `select serial_number::int, account_id::int, lower(timestamp_range)::text as since,
              upper(timestamp_range)::text as until
         from nft_history order by serial_number, lower(timestamp_range)`,
    );
    expect(history).toEqual([
      { serial_number: 1, account_id: OLD_TREASURY, since: '2', until: '100000000000' },
      { serial_number: 1, account_id: NEW_TREASURY, since: '100000000000', until: '101000000000' },
      { serial_number: 2, account_id: OLD_TREASURY, since: '2', until: '100000000000' },
    ]);
    const current = await query(
      "select serial_number::int, convert_from(metadata, 'utf8') as metadata, lower(timestamp_range)::text as since from nft order by serial_number",
    );
    expect(current.slice(0, 2)).toEqual([
      { serial_number: 1, metadata: 'new', since: '101000000000' },
      { serial_number: 2, metadata: '', since: '100000000000' },
    ]);
  });

  it("moves the old treasury's count of the token to the new one", async () => {
    expect(await query('select account_id::int, balance::int from token_account order by account_id')).toEqual([
      { account_id: OLD_TREASURY, balance: 0 },
      { account_id: NEW_TREASURY, balance: 2 },
      { account_id: HOLDER, balance: 1 },
    ]);
  });
});
