import { describe, expect, it } from 'vitest';
import { insertRow, insertTransaction, ns } from '../../../test/harness/factories.ts';
import { insertEntity, insertNft, insertToken, insertTokenAccount } from '../../../test/harness/factories-tokens.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';

// 2023-11-14T22:13:20Z
const T0 = ns('1700000000');
const FUNGIBLE = 1001;
const NFT = 1500;
const KEY_HEX = 'cd'.repeat(32);
const accounts = (body: { balances: { account: string }[] }) => body.balances.map((b) => b.account);

const { worker } = registerWorkerSuite({
  seed: async (db) => {
    await insertToken(db.sql, FUNGIBLE, T0, { decimals: 3 });
    for (const [account, balance] of [
      [2001, 10],
      [2002, 20],
      [2003, 30],
    ] as const) {
      await insertEntity(db.sql, account, T0, account === 2002 ? { public_key: KEY_HEX } : {});
      await insertTokenAccount(db.sql, {
        account_id: account,
        token_id: FUNGIBLE,
        balance,
        balance_timestamp: T0 + BigInt(account),
      });
    }
    await insertTokenAccount(db.sql, { account_id: 2004, token_id: FUNGIBLE, balance: 40, associated: false });
    // A balance snapshot (the treasury 0.0.2 is in every one) and the token balances in it and before it.
    await insertRow(db.sql, 'account_balance', { account_id: 2, balance: 1, consensus_timestamp: T0 + 100n });
    await insertRow(db.sql, 'account_balance', { account_id: 2, balance: 1, consensus_timestamp: T0 + 200n });
    for (const [account, balance, at] of [
      [2001, 1, 50n],
      [2001, 2, 100n],
      [2002, 5, 100n],
      [2003, 9, 150n],
    ] as const) {
      await insertRow(db.sql, 'token_balance', {
        account_id: account,
        balance,
        consensus_timestamp: T0 + at,
        token_id: FUNGIBLE,
      });
    }

    await insertToken(db.sql, NFT, T0, { type: 'NON_FUNGIBLE_UNIQUE' });
    for (const serial of [1, 2, 3]) {
      await insertNft(db.sql, {
        token_id: NFT,
        serial_number: serial,
        created_timestamp: T0 + BigInt(serial),
        account_id: serial === 2 ? 2002 : 2001,
        spender: serial === 3 ? 2003 : null,
      });
    }
    // Serial 1's history: minted to the treasury, then transferred.
    await db.sql.query(`update nft set timestamp_range = $1 where token_id = $2 and serial_number = 1`, [
      `[${T0 + 20n},)`,
      NFT,
    ]);
    await insertRow(db.sql, 'nft_history', {
      token_id: NFT,
      serial_number: 1,
      account_id: 98,
      created_timestamp: T0 + 1n,
      metadata: Buffer.from('m1'),
      timestamp_range: `[${T0 + 1n},${T0 + 20n})`,
    });
    const transfer = (sender: number | null, receiver: number, serial: number) => ({
      is_approval: false,
      receiver_account_id: receiver,
      sender_account_id: sender,
      serial_number: serial,
      token_id: NFT,
    });
    await insertTransaction(db.sql, {
      consensus_timestamp: T0 + 1n,
      payer_account_id: 98n,
      type: 37,
      nft_transfer: JSON.stringify([transfer(null, 98, 1)]),
    });
    await insertTransaction(db.sql, {
      consensus_timestamp: T0 + 20n,
      payer_account_id: 98n,
      nft_transfer: JSON.stringify([transfer(98, 2001, 1), transfer(98, 2002, 2)]),
    });
    // An NFT known only from a transfer: its history is partial.
    await insertRow(db.sql, 'nft_history', {
      token_id: NFT,
      serial_number: 9,
      account_id: 2001,
      timestamp_range: `[${T0 + 30n},${T0 + 31n})`,
    });
    await insertTransaction(db.sql, {
      consensus_timestamp: T0 + 30n,
      payer_account_id: 98n,
      nft_transfer: JSON.stringify([transfer(98, 2001, 9)]),
    });
  },
});

describe('GET /api/v1/tokens/{tokenId}/balances', () => {
  it('lists the associated holders newest account first, with the newest balance change as timestamp', async () => {
    const res = await worker.get('/api/v1/tokens/0.0.1001/balances?limit=2');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=1');
    expect(res.body.balances).toEqual([
      { account: '0.0.2003', balance: 30, decimals: 3 },
      { account: '0.0.2002', balance: 20, decimals: 3 },
    ]);
    expect(res.body.timestamp).toBe('1700000000.000002003');
    expect(res.body.links.next).toBe('/api/v1/tokens/0.0.1001/balances?limit=2&account.id=lt:0.0.2002');
    expect(accounts((await worker.get(res.body.links.next)).body)).toEqual(['0.0.2001']);
  });

  it('filters by account, balance and public key', async () => {
    const res = await worker.get(
      '/api/v1/tokens/1001/balances?account.id=gte:0.0.2002&account.balance=lt:30&order=asc',
    );
    expect(accounts(res.body)).toEqual(['0.0.2002']);
    expect(accounts((await worker.get(`/api/v1/tokens/1001/balances?account.publickey=0x${KEY_HEX}`)).body)).toEqual([
      '0.0.2002',
    ]);
  });

  it('reads a past balance snapshot for a timestamp', async () => {
    await worker.setState({ fakeTime: '2023-11-20T00:00:00Z' });
    try {
      const res = await worker.get('/api/v1/tokens/1001/balances?timestamp=1700000000.000000199&order=asc');
      expect(res.body).toEqual({
        timestamp: '1700000000.000000100',
        balances: [
          { account: '0.0.2001', balance: 2, decimals: 3 },
          { account: '0.0.2002', balance: 5, decimals: 3 },
        ],
        links: { next: null },
      });
      const latest = await worker.get('/api/v1/tokens/1001/balances?timestamp=lte:1700000001&account.balance=gt:2');
      expect(latest.body.timestamp).toBe('1700000000.000000200');
      expect(latest.body.balances.map((b: { balance: number }) => b.balance)).toEqual([9, 5]);
      const empty = await worker.get('/api/v1/tokens/1001/balances?timestamp=gt:5&timestamp=lt:3');
      expect(empty.body).toEqual({ timestamp: null, balances: [], links: { next: null } });
    } finally {
      await worker.setState({});
    }
  });
});

describe('GET /api/v1/tokens/{tokenId}/nfts', () => {
  it('lists the NFTs by serial number, newest first', async () => {
    const res = await worker.get('/api/v1/tokens/1500/nfts?limit=2');
    expect(res.body.nfts[0]).toEqual({
      account_id: '0.0.2001',
      created_timestamp: '1700000000.000000003',
      delegating_spender: null,
      deleted: false,
      metadata: Buffer.from('m3').toString('base64'),
      modified_timestamp: '1700000000.000000003',
      serial_number: 3,
      spender: '0.0.2003',
      token_id: '0.0.1500',
    });
    expect(res.body.links.next).toBe('/api/v1/tokens/1500/nfts?limit=2&serialnumber=lt:2');
    const owned = await worker.get('/api/v1/tokens/1500/nfts?account.id=0.0.2002');
    expect(owned.body.nfts.map((n: { serial_number: number }) => n.serial_number)).toEqual([2]);
  });

  it('returns one NFT, and 404 or 400 as the reference does', async () => {
    expect((await worker.get('/api/v1/tokens/1500/nfts/2')).body.account_id).toBe('0.0.2002');
    expect((await worker.get('/api/v1/tokens/1500/nfts/7')).status).toBe(404);
    const unknown = await worker.get('/api/v1/tokens/1500/nfts/x?limit=1');
    expect(unknown.body._status.messages).toEqual([{ message: 'Unknown query parameter: limit' }]);
    const bad = await worker.get('/api/v1/tokens/1500/nfts/x');
    expect(bad.body._status.messages).toEqual([{ message: 'Invalid parameter: serialnumber' }]);
  });
});

describe('GET /api/v1/tokens/{tokenId}/nfts/{serialNumber}/transactions', () => {
  it('lists the transactions that changed the NFT, with its transfer in each', async () => {
    const res = await worker.get('/api/v1/tokens/1500/nfts/1/transactions');
    expect(res.status).toBe(200);
    expect(res.body.transactions).toEqual([
      {
        consensus_timestamp: '1700000000.000000020',
        is_approval: false,
        nonce: 0,
        receiver_account_id: '0.0.2001',
        sender_account_id: '0.0.98',
        transaction_id: '0.0.98-1700000000-000000019',
        type: 'CRYPTOTRANSFER',
      },
      {
        consensus_timestamp: '1700000000.000000001',
        is_approval: false,
        nonce: 0,
        receiver_account_id: '0.0.98',
        sender_account_id: null,
        transaction_id: '0.0.98-1700000000-000000000',
        type: 'TOKENMINT',
      },
    ]);
    const page = await worker.get('/api/v1/tokens/1500/nfts/1/transactions?limit=1&order=asc');
    expect(page.body.links.next).toBe(
      '/api/v1/tokens/1500/nfts/1/transactions?limit=1&order=asc&timestamp=gt:1700000000.000000001',
    );
  });

  it('answers 206 when the NFT itself is unknown', async () => {
    const res = await worker.get('/api/v1/tokens/1500/nfts/9/transactions');
    expect(res.status).toBe(206);
    expect(res.body.transactions.map((t: { consensus_timestamp: string }) => t.consensus_timestamp)).toEqual([
      '1700000000.000000030',
    ]);
  });
});
