import { describe, expect, it } from 'vitest';
import { signEthereumCall } from '../../simulator/evm/ethereum-tx.ts';
import { useTestDatabase } from '../../test/harness/test-database.ts';
import { ingestItems, rowsOf } from '../testing/ingest-records.ts';

const INSUFFICIENT_ACCOUNT_BALANCE = 28;
const NS = 1_000_000_000n;

const db = useTestDatabase();

describe('a failed CryptoTransfer before 2020', () => {
  it('keeps its transfers, those the body lists marked errata DELETE and left out of balances', async () => {
    const transfers = [
      { accountID: { accountNum: 1001 }, amount: -50 },
      { accountID: { accountNum: 1600 }, amount: 50 },
    ];
    const at = 1_560_000_000;
    await ingestItems(db.sql, [
      {
        at,
        status: INSUFFICIENT_ACCOUNT_BALANCE,
        body: { cryptoTransfer: { transfers: { accountAmounts: transfers } } },
        record: {
          transferList: {
            accountAmounts: [
              ...transfers,
              { accountID: { accountNum: 1001 }, amount: -7 },
              { accountID: { accountNum: 3 }, amount: 7 },
            ],
          },
        },
      },
    ]);
    expect(
      await rowsOf(
        db.sql,
        'select entity_id::int as account, amount::int, errata from crypto_transfer order by amount, entity_id',
      ),
    ).toEqual([
      { account: 1001, amount: -50, errata: 'DELETE' },
      { account: 1001, amount: -7, errata: null },
      { account: 3, amount: 7, errata: null },
      { account: 1600, amount: 50, errata: 'DELETE' },
    ]);
    expect(await rowsOf(db.sql, 'select id::int, balance::int from entity order by id')).toEqual([
      { id: 3, balance: 7 },
      { id: 1001, balance: -7 },
    ]);
    expect(await rowsOf(db.sql, 'select errata, itemized_transfer from transaction')).toEqual([
      { errata: null, itemized_transfer: null },
    ]);
  });
});

describe('a scheduled transaction', () => {
  it('records its execution on the schedule, also when it failed', async () => {
    await ingestItems(db.sql, [
      {
        at: 100,
        body: { scheduleCreate: { scheduledTransactionBody: { cryptoTransfer: {} } } },
        receipt: { scheduleID: { scheduleNum: 1700 } },
      },
      {
        at: 101,
        scheduled: true,
        status: 28,
        body: { cryptoTransfer: {} },
        record: { scheduleRef: { scheduleNum: 1700 } },
      },
    ]);
    expect(await rowsOf(db.sql, 'select executed_timestamp::text from schedule where schedule_id = 1700')).toEqual([
      { executed_timestamp: `${101n * NS}` },
    ]);
  });
});

describe('in-place entity changes', () => {
  it('apply to an entity the database holds only: a signer nonce of an account never seen writes no row', async () => {
    const data = signEthereumCall(
      {
        type: 2,
        nonce: 3n,
        gasPrice: 1n,
        gasLimit: 30_000n,
        to: new Uint8Array(20).fill(5),
        value: 0n,
        data: new Uint8Array(),
      },
      new Uint8Array(32).fill(6),
    ).raw;
    await ingestItems(db.sql, [
      {
        at: 200,
        body: { ethereumTransaction: { ethereum_data: data } },
        record: {
          contractCallResult: {
            contractID: { contractNum: 2000 },
            sender_id: { accountNum: 1800 },
            signer_nonce: { value: 4 },
          },
        },
      },
    ]);
    expect(await rowsOf(db.sql, 'select count(*)::int as n from entity where id = 1800')).toEqual([{ n: 0 }]);
  });
});

describe('a ContractDelete', () => {
  it('marks the contract deleted with its obtainer and whether it is removed for good', async () => {
    await ingestItems(db.sql, [
      {
        at: 300,
        body: { contractCreateInstance: { gas: 1, initcode: Buffer.from('00', 'hex') } },
        receipt: { contractID: { contractNum: 2100 } },
      },
      {
        at: 301,
        body: {
          contractDeleteInstance: {
            contractID: { contractNum: 2100 },
            transferAccountID: { accountNum: 1600 },
            permanent_removal: true,
          },
        },
      },
    ]);
    expect(
      await rowsOf(db.sql, 'select deleted, obtainer_id::int, permanent_removal from entity where id = 2100'),
    ).toEqual([{ deleted: true, obtainer_id: 1600, permanent_removal: true }]);
  });
});

describe('an approved token transfer of a FAIL_INVALID CryptoTransfer', () => {
  it("spends the owner's token allowance, as its token transfers count (the importer's errata rule)", async () => {
    const FAIL_INVALID = 9;
    await ingestItems(db.sql, [
      {
        at: 400,
        payer: 1001,
        body: {
          cryptoApproveAllowance: {
            tokenAllowances: [
              { tokenId: { tokenNum: 5000 }, owner: { accountNum: 1900 }, spender: { accountNum: 1001 }, amount: 10 },
            ],
          },
        },
      },
    ]);
    const transfers = [
      { accountID: { accountNum: 1900 }, amount: -4, is_approval: true },
      { accountID: { accountNum: 1901 }, amount: 4 },
    ];
    await ingestItems(db.sql, [
      {
        at: 401,
        status: FAIL_INVALID,
        body: { cryptoTransfer: { tokenTransfers: [{ token: { tokenNum: 5000 }, transfers }] } },
        record: { tokenTransferLists: [{ token: { tokenNum: 5000 }, transfers }] },
      },
    ]);
    expect(await rowsOf(db.sql, 'select amount::int, amount_granted::int from token_allowance')).toEqual([
      { amount: 6, amount_granted: 10 },
    ]);
  });
});

describe('ethereum_transaction.call_data_id', () => {
  it('is NULL for a call data file 0.0.0', async () => {
    const data = signEthereumCall(
      {
        type: 2,
        nonce: 0n,
        gasPrice: 1n,
        gasLimit: 30_000n,
        to: new Uint8Array(20).fill(5),
        value: 0n,
        data: Uint8Array.of(1),
      },
      new Uint8Array(32).fill(7),
    ).raw;
    await ingestItems(db.sql, [{ at: 500, body: { ethereumTransaction: { ethereum_data: data, call_data: {} } } }]);
    expect(
      await rowsOf(db.sql, `select call_data_id from ethereum_transaction where consensus_timestamp = ${500n * NS}`),
    ).toEqual([{ call_data_id: null }]);
  });
});

describe('an NFT allowance to spender 0.0.0', () => {
  it('keeps the spender the NFT has (the importer reads 0 as RETAIN_SPENDER)', async () => {
    const approve = (at: number, spender: number) => ({
      at,
      payer: 1950,
      body: {
        cryptoApproveAllowance: {
          nftAllowances: [{ tokenId: { tokenNum: 5100 }, spender: { accountNum: spender }, serial_numbers: [1] }],
        },
      },
    });
    await ingestItems(db.sql, [approve(600, 1951), approve(601, 0)]);
    expect(
      await rowsOf(db.sql, 'select spender::int, account_id::int from nft where token_id = 5100 and serial_number = 1'),
    ).toEqual([{ spender: 1951, account_id: 1950 }]);
  });
});
