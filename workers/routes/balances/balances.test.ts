import { describe, expect, it } from 'vitest';
import { insertRow, ns } from '../../../test/harness/factories.ts';
import { insertAccountBalance } from '../../../test/harness/factories-accounts.ts';
import { insertEntity, insertTokenAccount } from '../../../test/harness/factories-tokens.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';
import { base32Encode } from '../../format/base32.ts';

const ALIAS = Buffer.alloc(32, 0x42);
const EVM_ADDRESS = Buffer.alloc(20, 0x77);
const KEY = '3c3d546321ff6f63d701d2ec5c277095874e19f4a235bee1e6bb19258bf362be';
const MAY = ns('1684112400');
const JUNE = ns('1686312900');

const { worker } = registerWorkerSuite({
  seed: async (db) => {
    await insertEntity(db.sql, 2, 1n, { balance: 100, balance_timestamp: 20 });
    await insertEntity(db.sql, 1001, 1n, { balance: 10, balance_timestamp: 30, public_key: KEY, alias: ALIAS });
    await insertEntity(db.sql, 1002, 1n, { balance: 20, balance_timestamp: 10, evm_address: EVM_ADDRESS });
    await insertTokenAccount(db.sql, { account_id: 1001, token_id: 5001, balance: 1 });
    await insertTokenAccount(db.sql, { account_id: 1001, token_id: 5002, balance: 2 });
    for (const [at, balances] of [
      [MAY, [2, 1001, 1002]],
      [JUNE, [2, 1001]],
    ] as const) {
      for (const account of balances) {
        await insertAccountBalance(db.sql, {
          account_id: account,
          balance: account * (at === MAY ? 10 : 100),
          consensus_timestamp: at,
        });
      }
    }
    await insertRow(db.sql, 'token_balance', {
      account_id: 1001,
      token_id: 5001,
      balance: 7,
      consensus_timestamp: MAY,
    });
  },
});

const accounts = (body: { balances: { account: string }[] }) => body.balances.map((b) => b.account);

describe('GET /api/v1/balances', () => {
  it('answers the current balances, newest account first, with the latest balance time', async () => {
    const res = await worker.get('/api/v1/balances');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=1');
    expect(res.body).toEqual({
      timestamp: '0.000000030',
      balances: [
        { account: '0.0.1002', balance: 20, tokens: [] },
        {
          account: '0.0.1001',
          balance: 10,
          tokens: [
            { token_id: '0.0.5002', balance: 2 },
            { token_id: '0.0.5001', balance: 1 },
          ],
        },
        { account: '0.0.2', balance: 100, tokens: [] },
      ],
      links: { next: null },
    });
  });

  it('answers the balances of the latest snapshot at or before a timestamp, and pages', async () => {
    const june = await worker.get('/api/v1/balances?timestamp=1686400000');
    expect(june.body.timestamp).toBe('1686312900.000000000');
    expect(accounts(june.body)).toEqual(['0.0.1001', '0.0.2']);
    const may = await worker.get('/api/v1/balances?timestamp=lt:1686312900&limit=1&order=asc');
    expect(may.body.balances).toEqual([{ account: '0.0.2', balance: 20, tokens: [] }]);
    expect(may.body.links.next).toBe('/api/v1/balances?timestamp=lt:1686312900&limit=1&order=asc&account.id=gt:0.0.2');
    const next = await worker.get(may.body.links.next);
    expect(next.body.balances).toEqual([
      { account: '0.0.1001', balance: 10010, tokens: [{ token_id: '0.0.5001', balance: 7 }] },
    ]);
    const none = await worker.get('/api/v1/balances?timestamp=1600000000');
    expect(none.body).toEqual({ timestamp: null, balances: [], links: { next: null } });
  });

  it('finds accounts by id, one EVM address or alias, and public key', async () => {
    expect(accounts((await worker.get(`/api/v1/balances?account.id=${base32Encode(ALIAS)}`)).body)).toEqual([
      '0.0.1001',
    ]);
    const byEvm = await worker.get(`/api/v1/balances?account.id=${EVM_ADDRESS.toString('hex')}&account.id=0.0.2`);
    expect(accounts(byEvm.body)).toEqual(['0.0.1002', '0.0.2']);
    expect(accounts((await worker.get(`/api/v1/balances?account.publickey=0x${KEY}`)).body)).toEqual(['0.0.1001']);
    const snapshotByKey = await worker.get(`/api/v1/balances?account.publickey=${KEY}&timestamp=1686400000`);
    expect(accounts(snapshotByKey.body)).toEqual(['0.0.1001']);
    const unknown = await worker.get(`/api/v1/balances?account.id=0x${'99'.repeat(20)}`);
    expect(unknown.body.balances).toEqual([]);
  });

  it.each([
    [
      `account.id=${base32Encode(ALIAS)}&account.id=${EVM_ADDRESS.toString('hex')}`,
      { message: 'Invalid parameter: account.id', detail: 'Only one EVM address or alias is allowed.' },
    ],
    [
      `account.id=${base32Encode(ALIAS)}&account.id=gt:0.0.5`,
      { message: 'Invalid parameter: account.id', detail: 'EVM address or alias only supports equals operator' },
    ],
    ['account.id=0.0.x', { message: 'Invalid parameter: account.id' }],
    ['account.id=ABC', { message: 'Invalid accountAlias string ABC' }],
    ['account.balance=-1&order=up', { message: 'Invalid parameter: account.balance' }],
    ['token.id=1', { message: 'Unknown query parameter: token.id' }],
  ])('answers 400 for %s', async (query, message) => {
    const res = await worker.get(`/api/v1/balances?${query}`);
    expect(res.status).toBe(400);
    expect(res.body._status.messages[0]).toEqual(message);
  });
});
