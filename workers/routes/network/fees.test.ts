import { describe, expect, it } from 'vitest';
import {
  exchangeRateSetBytes,
  feeScheduleBytes,
  insertFileData,
  type RateInput,
} from '../../../test/harness/factories-network.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';

const FEE_FILE = 111n;
const RATE_FILE = 112n;
const SECOND = 1_000_000_000n;
/** When the current fee schedule and the current exchange rate expire. */
const EXPIRY = 1_759_951_090;
const EXPIRY_NS = BigInt(EXPIRY) * SECOND;
const FEES_AT = EXPIRY_NS - SECOND;
// HederaFunctionality numbers
const CRYPTO_TRANSFER = 1;
const CONTRACT_CALL = 6;
const CONTRACT_CREATE = 7;
const ETHEREUM_TRANSACTION = 84;

const ts = (ns: bigint) => `${ns / SECOND}.${(ns % SECOND).toString().padStart(9, '0')}`;
const current: RateInput = { hbars: 1, cents: 12, expiration: EXPIRY };
const next: RateInput = { hbars: 1, cents: 15, expiration: EXPIRY + 21_600 };
const notFound = (file: string) => ({
  _status: { messages: [{ message: 'Not Found', detail: `File ${file} not found` }] },
});

async function insertFees(at: bigint, bytes: Uint8Array) {
  await insertFileData(db.sql, { consensus_timestamp: at, entity_id: FEE_FILE, file_data: bytes });
}

async function insertRates(at: bigint, bytes: Uint8Array) {
  await insertFileData(db.sql, { consensus_timestamp: at, entity_id: RATE_FILE, file_data: bytes });
}

const { db, worker } = registerWorkerSuite();

describe('GET /api/v1/network/fees', () => {
  it('answers 404 for a missing fee schedule, then for a missing exchange rate file', async () => {
    expect(await worker.get('/api/v1/network/fees')).toMatchObject({ status: 404, body: notFound('0.0.111') });
    await insertRates(FEES_AT, exchangeRateSetBytes(current, next));
    await worker.setState({});
    expect(await worker.get('/api/v1/network/fees')).toMatchObject({ status: 404, body: notFound('0.0.111') });
    await db.sql.query('truncate file_data');
    await insertFees(FEES_AT, feeScheduleBytes({ expiry: EXPIRY, gas: [] }, { expiry: EXPIRY + 1, gas: [] }));
    await worker.setState({});
    expect(await worker.get('/api/v1/network/fees')).toMatchObject({ status: 404, body: notFound('0.0.112') });
  });

  it('prices the gas of contract transactions in tinybars at the current rate, by type name', async () => {
    await db.sql.query('truncate file_data');
    await insertFees(
      FEES_AT,
      feeScheduleBytes(
        {
          expiry: EXPIRY,
          gas: [
            [ETHEREUM_TRANSACTION, 953_000],
            [CRYPTO_TRANSFER, 500_000],
            [CONTRACT_CREATE, 1_068_000],
            [CONTRACT_CALL, 852_000],
          ],
        },
        {
          expiry: EXPIRY + 7_776_000,
          gas: [
            [CONTRACT_CALL, 1_704_000],
            [CONTRACT_CREATE, 2_136_000],
            [ETHEREUM_TRANSACTION, 5_000],
          ],
        },
      ),
    );
    await insertRates(FEES_AT + 1n, exchangeRateSetBytes(current, next));
    await worker.setState({});

    const res = await worker.get('/api/v1/network/fees');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(res.body).toEqual({
      fees: [
        { gas: 71, transaction_type: 'ContractCall' },
        { gas: 89, transaction_type: 'ContractCreate' },
        { gas: 79, transaction_type: 'EthereumTransaction' },
      ],
      timestamp: ts(FEES_AT),
    });
  });

  it('sorts descending with order=desc in any case, and ascending for an empty order', async () => {
    for (const order of ['desc', 'DESC', 'Desc']) {
      const res = await worker.get(`/api/v1/network/fees?order=${order}`);
      expect(res.body.fees.map((fee: { transaction_type: string }) => fee.transaction_type)).toEqual([
        'EthereumTransaction',
        'ContractCreate',
        'ContractCall',
      ]);
    }
    const empty = await worker.get('/api/v1/network/fees?order=');
    expect(empty.body.fees[0].transaction_type).toBe('ContractCall');
  });

  it('uses the next schedule and rate for a time past their expiry, at least one tinybar', async () => {
    const res = await worker.get(`/api/v1/network/fees?timestamp=lte:${ts(EXPIRY_NS + 1n)}`);
    expect(res.body).toEqual({
      fees: [
        { gas: 113, transaction_type: 'ContractCall' },
        { gas: 142, transaction_type: 'ContractCreate' },
        { gas: 1, transaction_type: 'EthereumTransaction' },
      ],
      timestamp: ts(FEES_AT),
    });
    const atExpiry = await worker.get(`/api/v1/network/fees?timestamp=${ts(EXPIRY_NS)}`);
    expect(atExpiry.body.fees[0]).toEqual({ gas: 71, transaction_type: 'ContractCall' });
  });

  it('answers 404 when the bound excludes the exchange rate file', async () => {
    const res = await worker.get(`/api/v1/network/fees?timestamp=${ts(FEES_AT)}`);
    expect(res).toMatchObject({ status: 404, body: notFound('0.0.112') });
  });

  it('leaves out types priced at an exchange rate without cents', async () => {
    const later = EXPIRY_NS + 100n * SECOND;
    await insertRates(later, exchangeRateSetBytes({ ...current, cents: 0 }, { ...next, cents: 0 }));
    await worker.setState({});
    const res = await worker.get('/api/v1/network/fees');
    expect(res.body).toEqual({ fees: [], timestamp: ts(FEES_AT) });
  });

  it.each([
    ['order=up', "Failed to convert 'order'"],
    ['order=%20asc', "Failed to convert 'order'"],
    ['timestamp=x&order=up', "Failed to convert 'timestamp'"],
    ['timestamp=1&timestamp=2&timestamp=3&order=up', "Failed to convert 'order'"],
    ['timestamp=1&timestamp=2&timestamp=3', 'timestamp size must be between 0 and 2'],
    ['timestamp=ne:1', "Failed to convert 'timestamp'"],
  ])('answers 400 for %s', async (query, detail) => {
    const res = await worker.get(`/api/v1/network/fees?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ _status: { messages: [{ message: 'Bad Request', detail }] } });
  });
});
