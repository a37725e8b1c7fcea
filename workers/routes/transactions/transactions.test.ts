import { describe, expect, it } from 'vitest';
import {
  insertCryptoTransfer,
  insertRow,
  insertTransaction,
  insertTransactionHash,
  ns,
} from '../../../test/harness/factories.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';

const PAYER = 1001n;
const VALID_START = ns('1700000000.000000001');
const HASH = Buffer.from(Array.from({ length: 48 }, (_, i) => i + 1));
// A CustomFeeLimit: account 0.0.9, one fixed fee of 1000 in token 0.0.5100.
const FEE_LIMIT = Buffer.from('0a021809120808e807120318ec27', 'hex');
const ED25519_KEY = Buffer.from(`1220${'ab'.repeat(32)}`, 'hex');

const { db, worker } = registerWorkerSuite({
  seed: async (db) => {
    const first = VALID_START + 5n;
    await insertTransaction(db.sql, {
      consensus_timestamp: first,
      payer_account_id: PAYER,
      valid_start_ns: VALID_START,
      transaction_hash: HASH,
      memo: Buffer.from('hello'),
      batch_key: ED25519_KEY,
      max_custom_fees: [FEE_LIMIT],
      nft_transfer: JSON.stringify([
        {
          is_approval: false,
          receiver_account_id: 1002,
          sender_account_id: null,
          serial_number: '9223372036854775807',
          token_id: 5000,
        },
      ]).replace('"9223372036854775807"', '9223372036854775807'),
    });
    await insertTransactionHash(db.sql, { consensus_timestamp: first, hash: HASH, payer_account_id: PAYER });
    await insertCryptoTransfer(db.sql, {
      consensus_timestamp: first,
      entity_id: PAYER,
      amount: -107n,
      payer_account_id: PAYER,
    });
    await insertCryptoTransfer(db.sql, {
      consensus_timestamp: first,
      entity_id: 98n,
      amount: 100n,
      payer_account_id: PAYER,
    });
    await insertCryptoTransfer(db.sql, {
      consensus_timestamp: first,
      entity_id: 3n,
      amount: 7n,
      payer_account_id: PAYER,
    });
    // A child with the same transaction id (nonce 1), as network-generated transactions have.
    await insertTransaction(db.sql, {
      consensus_timestamp: first + 1n,
      payer_account_id: PAYER,
      valid_start_ns: VALID_START,
      nonce: 1,
      type: 11,
    });
    // A schedule created just now that has not executed.
    await insertTransaction(db.sql, {
      consensus_timestamp: ns('1800000000.000000002'),
      payer_account_id: PAYER,
      valid_start_ns: ns('1800000000.000000001'),
      type: 42,
    });
    await insertRow(db.sql, 'staking_reward_transfer', {
      account_id: 1003,
      amount: 50,
      consensus_timestamp: first,
      payer_account_id: PAYER,
    });
    await insertCryptoTransfer(db.sql, {
      consensus_timestamp: first,
      entity_id: 800n,
      amount: -50n,
      payer_account_id: PAYER,
    });
  },
});

const ID = '0.0.1001-1700000000-000000001';

describe('GET /api/v1/transactions/{transactionIdOrHash}', () => {
  it('returns every transaction with the id, in consensus order, with its transfers', async () => {
    const res = await worker.get(`/api/v1/transactions/${ID}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=600');
    expect(res.body.transactions.map((t: { nonce: number }) => t.nonce)).toEqual([0, 1]);
    const [parent, child] = res.body.transactions;
    expect(parent).toMatchObject({
      batch_key: { _type: 'ED25519', key: 'ab'.repeat(32) },
      consensus_timestamp: '1700000000.000000006',
      max_custom_fees: [{ account_id: '0.0.9', amount: 1000, denominating_token_id: '0.0.5100' }],
      memo_base64: 'aGVsbG8=',
      name: 'CRYPTOTRANSFER',
      result: 'SUCCESS',
      staking_reward_transfers: [{ account: '0.0.1003', amount: 50 }],
      transaction_hash: HASH.toString('base64'),
      transaction_id: ID,
      transfers: [
        { account: '0.0.3', amount: 7, is_approval: false },
        { account: '0.0.98', amount: 100, is_approval: false },
        { account: '0.0.800', amount: -50, is_approval: false },
        { account: '0.0.1001', amount: -107, is_approval: false },
      ],
      valid_start_timestamp: '1700000000.000000001',
    });
    expect(child).toMatchObject({ name: 'CRYPTOCREATEACCOUNT', transfers: [], staking_reward_transfers: [] });
  });

  it('keeps integers beyond 2^53 exact', async () => {
    const res = await fetch(`${worker.baseUrl}/api/v1/transactions/${ID}`);
    expect(await res.text()).toContain('"serial_number":9223372036854775807');
  });

  it('filters by nonce and by scheduled, the last value winning', async () => {
    const byNonce = await worker.get(`/api/v1/transactions/${ID}?nonce=0&nonce=1`);
    expect(byNonce.body.transactions.map((t: { nonce: number }) => t.nonce)).toEqual([1]);
    const scheduled = await worker.get(`/api/v1/transactions/${ID}?scheduled=true`);
    expect(scheduled.status).toBe(404);
  });

  it('finds a transaction by its 48-byte hash in hex, 0x-hex and base64url', async () => {
    for (const form of [HASH.toString('hex'), `0x${HASH.toString('hex')}`, HASH.toString('base64url')]) {
      const res = await worker.get(`/api/v1/transactions/${form}`);
      expect(res.status).toBe(200);
      expect(res.body.transactions).toHaveLength(1);
    }
  });

  it('caches a recent, unexecuted schedule create for seconds only', async () => {
    await worker.setState({ fakeTime: '2027-01-15T08:00:00Z' });
    const res = await worker.get('/api/v1/transactions/0.0.1001-1800000000-000000001');
    expect(res.headers.get('cache-control')).toBe('public, max-age=5');
    await worker.setState({});
  });

  it('answers 404 with the reference body for an unknown transaction', async () => {
    const res = await worker.get('/api/v1/transactions/0.0.2-1234567890-000000000');
    expect(res).toMatchObject({ status: 404, body: { _status: { messages: [{ message: 'Not found' }] } } });
  });

  it('answers 400 naming each invalid and unknown parameter', async () => {
    const res = await worker.get(`/api/v1/transactions/${ID}?nonce=-1&scheduled=maybe&limit=2`);
    expect(res.status).toBe(400);
    expect(res.body._status.messages).toEqual([
      { message: 'Invalid parameter: nonce' },
      { message: 'Invalid parameter: scheduled' },
      { message: 'Unknown query parameter: limit' },
    ]);
  });

  it('answers 400 for a malformed transaction id', async () => {
    const res = await worker.get('/api/v1/transactions/0.0.x-123-456');
    expect(res.status).toBe(400);
  });
});

describe('routes the reference removed or never had', () => {
  it.each([
    '/api/v1/accounts/0.0.1001/hooks',
    '/api/v1/accounts/0.0.1001/hooks/1/storage',
    `/api/v1/transactions/${ID}/stateproof`,
    '/api/v1/no-such-route',
  ])('answers 404 Not found for %s', async (path) => {
    const res = await worker.get(path);
    expect(res).toMatchObject({ status: 404, body: { _status: { messages: [{ message: 'Not found' }] } } });
  });
});

describe('health', () => {
  it('is live, and not ready while no address book is ingested', async () => {
    expect((await worker.get('/health/liveness')).status).toBe(200);
    expect((await worker.get('/health/readiness')).status).toBe(503);
    await insertRow(db.sql, 'address_book', {
      start_consensus_timestamp: 1,
      file_id: 102,
      node_count: 1,
      file_data: Buffer.from(''),
    });
    expect((await worker.get('/health/readiness')).status).toBe(200);
  });
});

describe('paths', () => {
  it('serves a path with a trailing slash like the path without it, as the reference does', async () => {
    const res = await worker.get(`/api/v1/transactions/${ID}/`);
    expect(res.status).toBe(200);
    expect(res.body.transactions[0].transaction_id).toBe(ID);
  });
});
