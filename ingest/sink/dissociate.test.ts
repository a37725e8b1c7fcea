import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hapi } from '../../proto/hapi.ts';
import { insertRow } from '../../test/harness/factories.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import type { ParsedRecordFile, RawItem } from '../decode/record-file.ts';
import { deriveRecordFile } from '../derive/record-file.ts';
import { parsedRecordFile } from '../testing/parsed-record-file.ts';
import { TableSchema } from './schema.ts';
import { writeFileRows } from './writer.ts';

const FUNGIBLE = 5000;
const NFT = 5001;
const HOLDER = 1600;
const SECOND = 1_000_000_000n;

/** A TokenDissociate of `token` whose record moves the holder's whole balance out, as for a deleted token. */
function dissociate(seconds: number, token: number, amount: number): RawItem {
  const types = hapi();
  const transactionID = { accountID: { accountNum: HOLDER }, transactionValidStart: { seconds: seconds - 5 } };
  const body = { transactionID, tokenDissociate: { account: { accountNum: HOLDER }, tokens: [{ tokenNum: token }] } };
  const bodyBytes = types.TransactionBody.encode(types.TransactionBody.fromObject(body)).finish();
  return {
    transaction: types.Transaction.encode(types.Transaction.fromObject({ bodyBytes })).finish(),
    record: types.TransactionRecord.encode(
      types.TransactionRecord.fromObject({
        consensusTimestamp: { seconds },
        transactionID,
        receipt: { status: 22 },
        tokenTransferLists: [
          { token: { tokenNum: token }, transfers: [{ accountID: { accountNum: HOLDER }, amount }] },
        ],
      }),
    ).finish(),
  };
}

let db: TestDatabase;
const query = async (text: string) => (await db.sql.query(text)).rows as Record<string, unknown>[];

beforeAll(async () => {
  db = await createTestDatabase();
  const token = { decimals: 0, initial_supply: 0, name: 't', symbol: 't', treasury_account_id: 1500 };
  const statuses = { freeze_status: 0, kyc_status: 0, timestamp_range: '[1,)', created_timestamp: 1 };
  await insertRow(db.sql, 'token', { ...token, ...statuses, token_id: FUNGIBLE, total_supply: 100 });
  await insertRow(db.sql, 'token', {
    ...token,
    ...statuses,
    token_id: NFT,
    total_supply: 3,
    type: 'NON_FUNGIBLE_UNIQUE',
  });
  for (const [serial, owner] of [
    [1, HOLDER],
    [2, HOLDER],
    [3, 1700],
  ]) {
    const nft = { token_id: NFT, serial_number: serial, account_id: owner, deleted: false, created_timestamp: 2 };
    await insertRow(db.sql, 'nft', { ...nft, metadata: Buffer.alloc(0), timestamp_range: '[2,)' });
  }
  const file: ParsedRecordFile = parsedRecordFile([dissociate(100, FUNGIBLE, -30), dissociate(101, NFT, -2)]);
  const schema = await TableSchema.load(db.sql);
  const { rows } = deriveRecordFile(file, {
    index: 1n,
    loadStart: 0n,
    sidecars: [],
    columnKinds: schema.columnKinds(),
  });
  await db.sql.query('begin');
  await writeFileRows(db.sql, schema, rows);
  await db.sql.query('commit');
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

describe('a TokenDissociate from a deleted token', () => {
  it('lowers the total supply by the balance that leaves', async () => {
    expect(await query('select token_id::int, total_supply::int from token order by token_id')).toEqual([
      { token_id: FUNGIBLE, total_supply: 70 },
      { token_id: NFT, total_supply: 1 },
    ]);
  });

  it('writes a token transfer for a fungible token only', async () => {
    expect(await query('select token_id::int, account_id::int, amount::int, is_approval from token_transfer')).toEqual([
      { token_id: FUNGIBLE, account_id: HOLDER, amount: -30, is_approval: false },
    ]);
  });

  it("deletes the account's NFTs, keeping what they were in history, and lists them as one transfer of the amount", async () => {
    expect(
      await query(
        'select serial_number::int as serial, account_id::int as owner, deleted from nft order by serial_number',
      ),
    ).toEqual([
      { serial: 1, owner: null, deleted: true },
      { serial: 2, owner: null, deleted: true },
      { serial: 3, owner: 1700, deleted: false },
    ]);
    expect(
      await query(
        `select serial_number::int as serial, account_id::int as owner, timestamp_range::text as range
           from nft_history order by serial_number`,
      ),
    ).toEqual([
      { serial: 1, owner: HOLDER, range: `[2,${101n * SECOND})` },
      { serial: 2, owner: HOLDER, range: `[2,${101n * SECOND})` },
    ]);
    expect(await query('select nft_transfer from transaction order by consensus_timestamp')).toEqual([
      { nft_transfer: null },
      {
        nft_transfer: [
          {
            is_approval: false,
            receiver_account_id: null,
            sender_account_id: HOLDER,
            serial_number: -2,
            token_id: NFT,
          },
        ],
      },
    ]);
  });
});
