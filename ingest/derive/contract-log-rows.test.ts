import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/harness/test-database.ts';
import { ingestItems, rowsOf } from '../testing/ingest-records.ts';

const CONTRACT = 2000;
const TOKEN = 5000;
const NFT = 5001;
const ALICE = 1600;
const BOB = 1601;
/** An account created with a 20-byte EVM address alias. */
const CAROL = 1602;
const CAROL_ADDRESS = Buffer.from('00ab'.padEnd(40, 'c'), 'hex');
const TRANSFER = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const APPROVAL = '8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925';
const APPROVAL_FOR_ALL = '17307eab39ab6107e8899845ad3d59bd9653f200f220920489ca2b5937696c31';
const NS = 1_000_000_000n;

const db = useTestDatabase();

const evmLog = (data: string) => ({
  contractID: { contractNum: CONTRACT },
  topic: [Buffer.from('01'.repeat(32), 'hex')],
  data: Buffer.from(data, 'hex'),
});
const call = (at: number, logs: unknown[], extra: Record<string, unknown> = {}) => ({
  at,
  body: { contractCall: { contractID: { contractNum: CONTRACT }, gas: 90_000 } },
  receipt: { contractID: { contractNum: CONTRACT } },
  record: { contractCallResult: { contractID: { contractNum: CONTRACT }, gasUsed: 1_000, logInfo: logs } },
  ...extra,
});
const fungible = (from: number, to: number, amount: number) => ({
  token: { tokenNum: TOKEN },
  transfers: [
    { accountID: { accountNum: from }, amount: -amount },
    { accountID: { accountNum: to }, amount },
  ],
});

const logs = (where: string) =>
  rowsOf(
    db.sql,
    `select consensus_timestamp::text as at, index, contract_id::int, root_contract_id::int, synthetic,
            encode(topic0, 'hex') as topic0, encode(topic1, 'hex') as topic1, encode(topic2, 'hex') as topic2,
            encode(topic3, 'hex') as topic3, encode(data, 'hex') as data, encode(bloom, 'hex') as bloom,
            transaction_index, encode(transaction_hash, 'hex') as hash
       from contract_log where ${where} order by consensus_timestamp, index`,
  );

describe('contract_log.index', () => {
  it('counts across the record file, synthetic logs of an item before its EVM logs', async () => {
    await ingestItems(
      db.sql,
      [
        call(100, [evmLog('aa')]),
        call(101, [evmLog('bb')], {
          record: {
            contractCallResult: { contractID: { contractNum: CONTRACT }, logInfo: [evmLog('bb')] },
            tokenTransferLists: [fungible(ALICE, BOB, 3)],
          },
        }),
        { at: 102, body: { cryptoTransfer: {} }, record: { tokenTransferLists: [fungible(ALICE, BOB, 4)] } },
      ],
      { hapiMinor: 60 },
    );
    const rows = await logs(`consensus_timestamp < ${103n * NS}`);
    expect(rows.map((r) => [r.at, r.index, r.synthetic, r.data])).toEqual([
      [`${100n * NS}`, 0, false, 'aa'],
      [`${101n * NS}`, 1, true, '03'],
      [`${101n * NS}`, 2, false, 'bb'],
      [`${102n * NS}`, 3, true, '04'],
    ]);
  });
});

describe('a synthetic Transfer log of a child record of a contract call', () => {
  it("is the parent's log: its time, transaction, contract and the bloom of its contract and topics", async () => {
    await ingestItems(db.sql, [
      call(200, [evmLog('cc')]),
      {
        at: 200,
        nanos: 1,
        nonce: 1,
        parent: { at: 200 },
        body: { cryptoTransfer: {} },
        record: {
          contractCallResult: { contractID: { contractNum: 359 } },
          tokenTransferLists: [fungible(ALICE, BOB, 9)],
        },
      },
    ]);
    const bloom = new Uint8Array(256);
    const insert = (input: Uint8Array) => {
      const hash = keccak_256(input);
      for (let i = 0; i < 3; i++) {
        const bit = (((hash[2 * i] ?? 0) << 8) | (hash[2 * i + 1] ?? 0)) & 0x7ff;
        bloom[255 - (bit >> 3)] = (bloom[255 - (bit >> 3)] ?? 0) | (1 << (bit & 7));
      }
    };
    const padded = (num: number) => Buffer.from(num.toString(16).padStart(64, '0'), 'hex');
    insert(Buffer.from(CONTRACT.toString(16).padStart(40, '0'), 'hex'));
    for (const topic of [Buffer.from(TRANSFER, 'hex'), padded(ALICE), padded(BOB)]) insert(topic);
    expect(await logs(`consensus_timestamp = ${200n * NS}`)).toEqual([
      expect.objectContaining({ index: 0, data: 'cc' }),
      {
        at: `${200n * NS}`,
        index: 1,
        contract_id: CONTRACT,
        root_contract_id: CONTRACT,
        synthetic: true,
        topic0: TRANSFER,
        topic1: ALICE.toString(16).padStart(4, '0'),
        topic2: BOB.toString(16).padStart(4, '0'),
        topic3: null,
        data: '09',
        bloom: Buffer.from(bloom).toString('hex'),
        transaction_index: 0,
        hash: 'c8'.repeat(32),
      },
    ]);
  });
});

describe('the topics of a synthetic Transfer log', () => {
  it('name an account by its EVM address, leading zero bytes trimmed, when it has one', async () => {
    await ingestItems(db.sql, [
      {
        at: 300,
        body: { cryptoCreateAccount: { alias: CAROL_ADDRESS } },
        receipt: { accountID: { accountNum: CAROL } },
      },
      { at: 301, body: { cryptoTransfer: {} }, record: { tokenTransferLists: [fungible(ALICE, CAROL, 5)] } },
    ]);
    expect(await logs(`consensus_timestamp = ${301n * NS}`)).toEqual([
      expect.objectContaining({ topic1: '0640', topic2: CAROL_ADDRESS.subarray(1).toString('hex'), bloom: '00' }),
    ]);
  });
});

describe('the synthetic logs of HAPI token operations', () => {
  it('are Approval and ApprovalForAll for allowances, and an indexed Transfer for an NFT, none marked synthetic', async () => {
    await ingestItems(db.sql, [
      {
        at: 400,
        payer: ALICE,
        body: {
          cryptoApproveAllowance: {
            tokenAllowances: [{ tokenId: { tokenNum: TOKEN }, spender: { accountNum: BOB }, amount: 70 }],
            nftAllowances: [
              { tokenId: { tokenNum: NFT }, spender: { accountNum: BOB }, serial_numbers: [3] },
              { tokenId: { tokenNum: NFT }, spender: { accountNum: CAROL }, approved_for_all: { value: true } },
            ],
          },
        },
      },
      {
        at: 401,
        body: { cryptoTransfer: {} },
        record: {
          tokenTransferLists: [
            {
              token: { tokenNum: NFT },
              nftTransfers: [
                { senderAccountID: { accountNum: ALICE }, receiverAccountID: { accountNum: BOB }, serialNumber: 3 },
              ],
            },
          ],
        },
      },
    ]);
    const rows = await logs(`consensus_timestamp >= ${400n * NS}`);
    expect(
      rows.map((r) => [r.index, r.contract_id, r.synthetic, r.topic0, r.topic1, r.topic2, r.topic3, r.data]),
    ).toEqual([
      [0, NFT, false, APPROVAL_FOR_ALL, '0640', '0642', null, '01'],
      [1, NFT, false, APPROVAL, '0640', '0641', '03', '00'],
      [2, TOKEN, false, APPROVAL, '0640', '0641', null, '46'],
      [3, NFT, false, TRANSFER, '0640', '0641', '03', '00'],
    ]);
  });
});
