import { describe, expect, it } from 'vitest';
import { insertRow, ns } from '../../../test/harness/factories.ts';
import { insertEntity, insertToken, insertTokenAccount } from '../../../test/harness/factories-tokens.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';

const T0 = ns('1700000000');
const ED25519_HEX = 'ab'.repeat(32);
const ED25519_KEY = Buffer.from(`1220${ED25519_HEX}`, 'hex');
const ids = (body: { tokens: { token_id: string }[] }) => body.tokens.map((token) => token.token_id);

const { worker } = registerWorkerSuite({
  seed: async (db) => {
    await insertToken(db.sql, 1001, T0, { name: 'Alpha coin', metadata: Buffer.from([1, 2]) });
    await insertToken(db.sql, 1002, T0 + 1n, { name: 'Beta coin', type: 'NON_FUNGIBLE_UNIQUE', decimals: 0 });
    await insertToken(db.sql, 1003, T0 + 2n, { name: 'Gamma' });
    await db.sql.query(`update entity set key = $1, public_key = $2 where id = 1003`, [ED25519_KEY, ED25519_HEX]);
    await insertEntity(db.sql, 2001, T0);
    await insertTokenAccount(db.sql, { account_id: 2001, token_id: 1001, balance: 5 });
    await insertTokenAccount(db.sql, { account_id: 2001, token_id: 1003, balance: 7, associated: false });

    // 1001's state: fees now, older fees and an older name in the history tables.
    await db.sql.query(`update token set timestamp_range = $1 where token_id = 1001`, [`[${T0 + 10n},)`]);
    await insertRow(db.sql, 'token_history', {
      token_id: 1001,
      created_timestamp: T0,
      decimals: 2,
      freeze_status: 0,
      kyc_status: 0,
      initial_supply: 1000,
      total_supply: 900,
      name: 'Old alpha',
      symbol: 'T1001',
      treasury_account_id: 98,
      timestamp_range: `[${T0},${T0 + 10n})`,
    });
    await insertRow(db.sql, 'custom_fee', {
      entity_id: 1001,
      fixed_fees: JSON.stringify([{ amount: 12, collector_account_id: 8904, denominating_token_id: 1003 }]),
      fractional_fees: JSON.stringify([
        {
          numerator: 1,
          denominator: 10,
          minimum_amount: 5,
          collector_account_id: 8901,
          all_collectors_are_exempt: true,
        },
      ]),
      timestamp_range: `[${T0 + 10n},)`,
    });
    await insertRow(db.sql, 'custom_fee_history', { entity_id: 1001, timestamp_range: `[${T0},${T0 + 10n})` });
    await insertRow(db.sql, 'custom_fee', {
      entity_id: 1002,
      royalty_fees: JSON.stringify([
        { numerator: 1, denominator: 4, collector_account_id: 8902, fallback_fee: { amount: 8 } },
        { numerator: 1, denominator: 5, collector_account_id: 8903, fallback_fee: { amount: 0 } },
      ]),
      timestamp_range: `[${T0 + 1n},)`,
    });
  },
});

describe('GET /api/v1/tokens', () => {
  it('lists tokens by id with a next link and the list cache time', async () => {
    const res = await worker.get('/api/v1/tokens?limit=2');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=10');
    expect(res.body.tokens[0]).toEqual({
      admin_key: null,
      decimals: 2,
      metadata: 'AQI=',
      name: 'Alpha coin',
      symbol: 'T1001',
      token_id: '0.0.1001',
      type: 'FUNGIBLE_COMMON',
    });
    expect(res.body.links.next).toBe('/api/v1/tokens?limit=2&token.id=gt:0.0.1002');
    expect(ids((await worker.get(res.body.links.next)).body)).toEqual(['0.0.1003']);
  });

  it('filters by associated account, type, public key and token id', async () => {
    expect(ids((await worker.get('/api/v1/tokens?account.id=0.0.2001')).body)).toEqual(['0.0.1001']);
    expect(ids((await worker.get('/api/v1/tokens?type=non_fungible_unique')).body)).toEqual(['0.0.1002']);
    expect(ids((await worker.get('/api/v1/tokens?type=ALL&order=desc')).body)).toEqual([
      '0.0.1003',
      '0.0.1002',
      '0.0.1001',
    ]);
    // The DER form of an ED25519 key matches its raw form.
    const der = `302a300506032b6570032100${ED25519_HEX}`;
    const byKey = await worker.get(`/api/v1/tokens?publickey=${der}`);
    expect(ids(byKey.body)).toEqual(['0.0.1003']);
    expect(byKey.body.tokens[0].admin_key).toEqual({ _type: 'ED25519', key: ED25519_HEX });
    expect(ids((await worker.get('/api/v1/tokens?token.id=1001&token.id=0.0.1003')).body)).toEqual([
      '0.0.1001',
      '0.0.1003',
    ]);
  });

  it('searches names case-insensitively without paging', async () => {
    const res = await worker.get('/api/v1/tokens?name=COIN&limit=1');
    expect(ids(res.body)).toEqual(['0.0.1001']);
    expect(res.body.links.next).toBeNull();
  });

  it('refuses name with token.id or account.id, and bad values', async () => {
    expect((await worker.get('/api/v1/tokens?name=coin&token.id=1')).body._status.messages).toEqual([
      { message: 'token.id and name can not be used together. Use a more specific name instead.' },
    ]);
    expect((await worker.get('/api/v1/tokens?name=coin&account.id=1')).body._status.messages).toEqual([
      { message: 'account.id and name cannot be used together' },
    ]);
    const bad = await worker.get('/api/v1/tokens?name=ab&type=x&publickey=12&foo=1');
    expect(bad.status).toBe(400);
    expect(bad.body._status.messages).toEqual([
      { message: 'Invalid parameter: name' },
      { message: 'Invalid parameter: type' },
      { message: 'Invalid parameter: publickey' },
      { message: 'Unknown query parameter: foo' },
    ]);
  });
});

describe('GET /api/v1/tokens/{tokenId}', () => {
  it('returns the token with its entity fields and fractional fees', async () => {
    const res = await worker.get('/api/v1/tokens/0x00000000000000000000000000000000000003e9');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=5');
    expect(res.body).toMatchObject({
      token_id: '0.0.1001',
      name: 'Alpha coin',
      decimals: '2',
      initial_supply: '1000',
      total_supply: '1000',
      max_supply: '9223372036854775807',
      memo: 'token 1001',
      deleted: false,
      expiry_timestamp: null,
      created_timestamp: '1700000000.000000000',
      modified_timestamp: '1700000000.000000010',
      treasury_account_id: '0.0.98',
      custom_fees: {
        created_timestamp: '1700000000.000000010',
        fixed_fees: [
          {
            all_collectors_are_exempt: false,
            amount: 12,
            collector_account_id: '0.0.8904',
            denominating_token_id: '0.0.1003',
          },
        ],
        fractional_fees: [
          {
            all_collectors_are_exempt: true,
            amount: { numerator: 1, denominator: 10 },
            collector_account_id: '0.0.8901',
            denominating_token_id: '0.0.1001',
            maximum: null,
            minimum: 5,
            net_of_transfers: false,
          },
        ],
      },
    });
  });

  it('shows royalty fees of an NFT token, with a zero fallback fee as null', async () => {
    const res = await worker.get('/api/v1/tokens/1002');
    expect(res.body.custom_fees.royalty_fees).toEqual([
      {
        all_collectors_are_exempt: false,
        amount: { denominator: 4, numerator: 1 },
        collector_account_id: '0.0.8902',
        fallback_fee: { amount: 8, denominating_token_id: null },
      },
      {
        all_collectors_are_exempt: false,
        amount: { denominator: 5, numerator: 1 },
        collector_account_id: '0.0.8903',
        fallback_fee: null,
      },
    ]);
    expect(res.body.custom_fees).not.toHaveProperty('fractional_fees');
  });

  it('reads the state as of a timestamp from the history tables', async () => {
    const res = await worker.get('/api/v1/tokens/1001?timestamp=1700000000.000000005');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Old alpha',
      total_supply: '900',
      modified_timestamp: '1700000000.000000000',
    });
    expect(res.body.custom_fees).toEqual({
      created_timestamp: '1700000000.000000000',
      fixed_fees: [],
      fractional_fees: [],
    });
    // Before the token existed, and for a token without custom fees: not found.
    expect((await worker.get('/api/v1/tokens/1001?timestamp=lt:1700000000')).status).toBe(404);
    expect((await worker.get('/api/v1/tokens/1003')).status).toBe(404);
  });

  it('accepts only eq, lt and lte timestamps', async () => {
    const res = await worker.get('/api/v1/tokens/1001?timestamp=gt:1&timestamp=ne:1');
    expect(res.body._status.messages).toEqual([
      { message: 'Invalid parameter: timestamp' },
      { message: 'Invalid parameter: timestamp' },
    ]);
    const bad = await worker.get('/api/v1/tokens/0.0.0x00000000000000000000000000000000000003e9');
    expect(bad.body._status.messages).toEqual([{ message: 'Invalid parameter: tokenid' }]);
  });
});
