import { describe, expect, it } from 'vitest';
import { insertCryptoTransfer, insertRow, insertTransaction, ns } from '../../../test/harness/factories.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';

const PAYER = 1001n;
const OTHER = 1002n;
const NFT_RECEIVER = 1003n;
const T = (n: number) => ns(`1700000000.00000000${n}`);

interface Tx {
  consensus_timestamp: string;
  nonce: number;
  name: string;
}
const timestamps = (body: { transactions: Tx[] }) => body.transactions.map((t) => t.consensus_timestamp);

const { worker } = registerWorkerSuite({
  seed: async (db) => {
    // 1: PAYER pays OTHER; 2: OTHER pays PAYER; 3: a failed transfer OTHER pays; 4: a synthetic child PAYER "pays";
    // 5: OTHER moves a token to PAYER; 6: a token update linked to NFT_RECEIVER only through entity_transaction
    const transfer = async (at: bigint, payer: bigint, to: bigint, extra: Record<string, unknown> = {}) => {
      await insertTransaction(db.sql, { consensus_timestamp: at, payer_account_id: payer, ...extra });
      await insertCryptoTransfer(db.sql, {
        consensus_timestamp: at,
        entity_id: payer,
        amount: -10n,
        payer_account_id: payer,
      });
      await insertCryptoTransfer(db.sql, {
        consensus_timestamp: at,
        entity_id: to,
        amount: 10n,
        payer_account_id: payer,
      });
    };
    await transfer(T(1), PAYER, OTHER);
    await transfer(T(2), OTHER, PAYER);
    await transfer(T(3), OTHER, 98n, { result: 11 });
    await insertTransaction(db.sql, {
      consensus_timestamp: T(4),
      payer_account_id: PAYER,
      nonce: 1,
      valid_start_ns: T(1) - 1n,
      type: 37,
    });
    await insertTransaction(db.sql, { consensus_timestamp: T(5), payer_account_id: OTHER, type: 14 });
    for (const [token, account, amount, approval] of [
      [5000, OTHER, -3n, false],
      [5000, PAYER, 3n, null],
      // a token whose supply is the int8 maximum, burned in one go by a treasury outside the filters below
      [4999, 1010n, -9223372036854775807n, true],
    ] as const) {
      await insertRow(db.sql, 'token_transfer', {
        token_id: token,
        account_id: account,
        amount,
        consensus_timestamp: T(5),
        payer_account_id: OTHER,
        is_approval: approval,
      });
    }
    await insertTransaction(db.sql, { consensus_timestamp: T(6), payer_account_id: OTHER, type: 36 });
    await insertRow(db.sql, 'entity_transaction', {
      consensus_timestamp: T(6),
      entity_id: NFT_RECEIVER,
      payer_account_id: OTHER,
      result: 22,
      type: 36,
    });
  },
});

describe('GET /api/v1/transactions', () => {
  it('lists the newest transactions first, cached for two seconds', async () => {
    const res = await worker.get('/api/v1/transactions');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=2');
    expect(timestamps(res.body)).toEqual([6, 5, 4, 3, 2, 1].map((n) => `1700000000.00000000${n}`));
    expect(res.body.links.next).toBeNull();
    const [first] = res.body.transactions;
    expect(first).not.toHaveProperty('assessed_custom_fees');
    expect(first).toMatchObject({
      name: 'TOKENUPDATE',
      transfers: [],
      token_transfers: [],
      staking_reward_transfers: [],
    });
  });

  it('writes each transfer with its own fields in token and account order, amounts beyond 2^53 exact', async () => {
    const res = await fetch(`${worker.baseUrl}/api/v1/transactions?timestamp=1700000000.000000005`);
    const text = await res.text();
    expect(text).toContain(
      '"token_transfers":[{"token_id":"0.0.4999","account":"0.0.1010","amount":-9223372036854775807,"is_approval":true},' +
        '{"token_id":"0.0.5000","account":"0.0.1001","amount":3,"is_approval":false},' +
        '{"token_id":"0.0.5000","account":"0.0.1002","amount":-3,"is_approval":false}]',
    );
    const paid = await worker.get('/api/v1/transactions?timestamp=1700000000.000000001');
    expect(paid.body.transactions[0].transfers).toEqual([
      { account: '0.0.1001', amount: -10, is_approval: false },
      { account: '0.0.1002', amount: 10, is_approval: false },
    ]);
  });

  it('pages by timestamp with links.next and the Link header', async () => {
    const res = await worker.get('/api/v1/transactions?limit=2&order=asc');
    expect(timestamps(res.body)).toEqual(['1700000000.000000001', '1700000000.000000002']);
    const next = '/api/v1/transactions?limit=2&order=asc&timestamp=gt:1700000000.000000002';
    expect(res.body.links.next).toBe(next);
    expect(res.headers.get('link')).toBe(`<${next}>; rel="next"`);
    const last = await worker.get('/api/v1/transactions?limit=2&order=asc&timestamp=gt:1700000000.000000004');
    expect(timestamps(last.body)).toEqual(['1700000000.000000005', '1700000000.000000006']);
  });

  it('finds the transactions an account paid, received, moved tokens in or is linked to', async () => {
    const payer = await worker.get('/api/v1/transactions?account.id=0.0.1001');
    // the synthetic child (nonce 1, no parent) at 4 is not the payer's own
    expect(timestamps(payer.body)).toEqual(['1700000000.000000005', '1700000000.000000002', '1700000000.000000001']);
    const linked = await worker.get('/api/v1/transactions?account.id=1003');
    expect(timestamps(linked.body)).toEqual(['1700000000.000000006']);
    const either = await worker.get('/api/v1/transactions?account.id=gte:0.0.1002&account.id=lte:0.0.1003&limit=3');
    expect(timestamps(either.body)).toEqual([6, 5, 3].map((n) => `1700000000.00000000${n}`));
    expect(either.body.links.next).toBe(
      '/api/v1/transactions?account.id=gte:0.0.1002&account.id=lte:0.0.1003&limit=3&timestamp=lt:1700000000.000000003',
    );
  });

  it('filters by credit or debit of the account, and finds nothing for both', async () => {
    const credits = await worker.get('/api/v1/transactions?account.id=0.0.1001&type=credit');
    expect(timestamps(credits.body)).toEqual(['1700000000.000000005', '1700000000.000000002']);
    const debits = await worker.get('/api/v1/transactions?account.id=0.0.1001&type=DEBIT');
    expect(timestamps(debits.body)).toEqual(['1700000000.000000001']);
    const both = await worker.get('/api/v1/transactions?type=credit&type=debit');
    expect(both.body).toEqual({ transactions: [], links: { next: null } });
  });

  it('filters by result and by transaction type', async () => {
    const failed = await worker.get('/api/v1/transactions?result=fail');
    expect(timestamps(failed.body)).toEqual(['1700000000.000000003']);
    const types = await worker.get('/api/v1/transactions?transactiontype=TOKENMINT&transactionType=tokenupdate');
    expect(timestamps(types.body)).toEqual(['1700000000.000000006', '1700000000.000000004']);
  });

  it('takes any mix of timestamp operators', async () => {
    const eq = await worker.get('/api/v1/transactions?timestamp=1700000000.000000002');
    expect(timestamps(eq.body)).toEqual(['1700000000.000000002']);
    const range = await worker.get(
      '/api/v1/transactions?timestamp=gt:1700000000.000000001&timestamp=gte:1700000000.000000002&timestamp=lte:1700000000.000000004&timestamp=ne:1700000000.000000003',
    );
    expect(timestamps(range.body)).toEqual(['1700000000.000000004', '1700000000.000000002']);
    const twoEq = await worker.get(
      '/api/v1/transactions?timestamp=1700000000.000000002&timestamp=1700000000.000000003',
    );
    expect(twoEq.body.transactions).toEqual([]);
  });

  it('searches a bounded time window with query.bindTimestampRange and links past it', async () => {
    await worker.setState({
      config: { query: { bindTimestampRange: true, maxTransactionsTimestampRange: '1d' } },
      fakeTime: '2023-11-20T00:00:00Z',
    });
    const res = await worker.get('/api/v1/transactions?limit=2');
    expect(res.body.transactions).toEqual([]);
    // now - 1d + 1ns: the next page searches the day before
    expect(res.body.links.next).toBe('/api/v1/transactions?limit=2&timestamp=lt:1700352000.000000001');
    await worker.setState({});
  });

  it('raises the page cap for a basic-auth user', async () => {
    await worker.setState({
      config: { response: { limit: { default: 1, max: 1 } }, users: [{ username: 'u', password: 'p', limit: 3 }] },
    });
    const anonymous = await worker.get('/api/v1/transactions?limit=3');
    expect(anonymous.body.transactions).toHaveLength(1);
    const user = await worker.get('/api/v1/transactions?limit=3', { authorization: `Basic ${btoa('u:p')}` });
    expect(user.body.transactions).toHaveLength(3);
    await worker.setState({});
  });

  it('answers 400 naming every invalid and unknown parameter', async () => {
    const res = await worker.get(
      '/api/v1/transactions?timestamp=-1&account.id=0.x&type=good&result=best&transactiontype=nope&limit=0&order=up&nonce=1',
    );
    expect(res.status).toBe(400);
    expect(res.body._status.messages.map((m: { message: string }) => m.message)).toEqual([
      'Invalid parameter: timestamp',
      'Invalid parameter: account.id',
      'Invalid parameter: type',
      'Invalid parameter: result',
      'Invalid parameter: transactiontype',
      'Invalid parameter: limit',
      'Invalid parameter: order',
      'Unknown query parameter: nonce',
    ]);
  });
});
