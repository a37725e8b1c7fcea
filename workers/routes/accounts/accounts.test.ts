import { describe, expect, it } from 'vitest';
import { insertCryptoTransfer, insertRow, insertTransaction, ns } from '../../../test/harness/factories.ts';
import { insertAccountBalance, insertCryptoAllowance } from '../../../test/harness/factories-accounts.ts';
import { insertEntity, insertToken, insertTokenAccount } from '../../../test/harness/factories-tokens.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';
import { base32Encode } from '../../format/base32.ts';

const ACCOUNT = 1001;
const OTHER = 1002;
const ALIAS = Buffer.alloc(32, 0x21);
const EVM_ADDRESS = Buffer.alloc(20, 0xcd);
const ED25519_KEY = Buffer.from(`1220${'ab'.repeat(32)}`, 'hex');
const T = (n: number) => ns('1700000000') + BigInt(n);
/** A balance snapshot in June 2023 (the treasury's row marks it). */
const SNAPSHOT = ns('1686312900');

const { db, worker } = registerWorkerSuite({
  seed: async (db) => {
    await insertEntity(db.sql, ACCOUNT, T(0), {
      alias: ALIAS,
      evm_address: EVM_ADDRESS,
      key: ED25519_KEY,
      balance: 5000,
      balance_timestamp: T(9),
      auto_renew_period: 7776000,
      memo: 'now',
      staked_node_id: 3,
      stake_period_start: 19000,
      timestamp_range: `[${T(5)},)`,
    });
    // the account as it was before T(5)
    await insertRow(db.sql, 'entity_history', {
      id: ACCOUNT,
      num: ACCOUNT,
      realm: 0,
      shard: 0,
      type: 'ACCOUNT',
      memo: 'before',
      deleted: false,
      balance: 4000,
      balance_timestamp: T(1),
      created_timestamp: T(0),
      timestamp_range: `[${T(0)},${T(5)})`,
    });
    await insertRow(db.sql, 'entity_stake', {
      id: ACCOUNT,
      end_stake_period: 19001,
      pending_reward: 77,
      staked_node_id_start: 3,
      staked_to_me: 0,
      stake_total_start: 0,
      timestamp_range: `[${T(5)},)`,
    });
    await insertEntity(db.sql, OTHER, T(0), { memo: 'other', balance: 10, balance_timestamp: T(2) });
    await insertEntity(db.sql, 2, T(0), { memo: 'Mirror node created synthetic treasury account', balance: 1 });
    await insertToken(db.sql, 5001, T(0));
    await insertTokenAccount(db.sql, { account_id: ACCOUNT, token_id: 5001, balance: 30, kyc_status: 1 });
    await insertTokenAccount(db.sql, { account_id: ACCOUNT, token_id: 5002, balance: 40 });

    for (const [at, payer, to] of [
      [T(1), ACCOUNT, OTHER],
      [T(2), OTHER, ACCOUNT],
      [T(3), OTHER, 98],
    ] as const) {
      await insertTransaction(db.sql, { consensus_timestamp: at, payer_account_id: BigInt(payer) });
      await insertCryptoTransfer(db.sql, {
        consensus_timestamp: at,
        entity_id: BigInt(payer),
        amount: -10n,
        payer_account_id: BigInt(payer),
      });
      await insertCryptoTransfer(db.sql, {
        consensus_timestamp: at,
        entity_id: BigInt(to),
        amount: 10n,
        payer_account_id: BigInt(payer),
      });
    }
    await insertAccountBalance(db.sql, { account_id: 2, balance: 1, consensus_timestamp: SNAPSHOT });
    await insertAccountBalance(db.sql, { account_id: ACCOUNT, balance: 3000, consensus_timestamp: SNAPSHOT });
    await insertRow(db.sql, 'token_balance', {
      account_id: ACCOUNT,
      token_id: 5001,
      balance: 3,
      consensus_timestamp: SNAPSHOT,
    });
    await insertRow(db.sql, 'staking_reward_transfer', {
      account_id: ACCOUNT,
      amount: 5,
      consensus_timestamp: T(2),
      payer_account_id: 800,
    });
    await insertCryptoAllowance(db.sql, { owner: ACCOUNT, spender: 3001, amount: 100 });
    await insertCryptoAllowance(db.sql, { owner: ACCOUNT, spender: 3002, amount: 0 });
  },
});

const timestamps = (body: { transactions: { consensus_timestamp: string }[] }) =>
  body.transactions.map((t) => t.consensus_timestamp);

describe('GET /api/v1/accounts/{idOrAliasOrEvmAddress}', () => {
  it('answers the account with its balances and transactions, by id, alias and EVM address alike', async () => {
    const res = await worker.get(`/api/v1/accounts/0.0.${ACCOUNT}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=2');
    const { transactions, links, ...account } = res.body;
    expect(account).toEqual({
      account: '0.0.1001',
      alias: base32Encode(ALIAS),
      auto_renew_period: 7776000,
      balance: {
        balance: 5000,
        timestamp: '1700000000.000000009',
        tokens: [
          { token_id: '0.0.5001', balance: 30 },
          { token_id: '0.0.5002', balance: 40 },
        ],
      },
      created_timestamp: '1700000000.000000000',
      decline_reward: false,
      deleted: false,
      ethereum_nonce: 0,
      evm_address: `0x${EVM_ADDRESS.toString('hex')}`,
      expiry_timestamp: '1707776000.000000000',
      key: { _type: 'ED25519', key: 'ab'.repeat(32) },
      max_automatic_token_associations: null,
      memo: 'now',
      pending_reward: 77,
      receiver_sig_required: null,
      staked_account_id: null,
      staked_node_id: 3,
      stake_period_start: '1641600000.000000000',
    });
    expect(timestamps({ transactions })).toEqual(['1700000000.000000002', '1700000000.000000001']);
    expect(transactions[0].assessed_custom_fees).toBeUndefined();
    expect(links).toEqual({ next: null });
    for (const path of [base32Encode(ALIAS), `0.0.${base32Encode(ALIAS)}`, `0x${EVM_ADDRESS.toString('hex')}`]) {
      expect((await worker.get(`/api/v1/accounts/${path}`)).body).toEqual(res.body);
    }
  });

  it('pages the transactions and leaves them out with transactions=false', async () => {
    const first = await worker.get(`/api/v1/accounts/${ACCOUNT}?limit=1&transactiontype=cryptotransfer`);
    expect(timestamps(first.body)).toEqual(['1700000000.000000002']);
    expect(first.body.links.next).toBe(
      '/api/v1/accounts/1001?limit=1&transactiontype=cryptotransfer&timestamp=lt:1700000000.000000002',
    );
    const none = await worker.get(`/api/v1/accounts/${ACCOUNT}?transactions=false`);
    expect(none.body.transactions).toEqual([]);
    expect(none.body.links).toEqual({ next: null });
  });

  it('shows the account as it was at a timestamp, with the balance snapshot of that time', async () => {
    const before = await worker.get(`/api/v1/accounts/${ACCOUNT}?timestamp=lte:${'1700000000.000000003'}`);
    expect(before.body.memo).toBe('before');
    // no snapshot at that time: the version's own balance and no tokens
    expect(before.body.balance).toEqual({ balance: 4000, timestamp: '1700000000.000000001', tokens: [] });
    expect(timestamps(before.body)).toEqual(['1700000000.000000002', '1700000000.000000001']);
    const june = await worker.get(`/api/v1/accounts/${ACCOUNT}?timestamp=lte:1686400000`);
    expect(june.status).toBe(404);
    await insertRow(db.sql, 'entity_history', {
      id: ACCOUNT,
      num: ACCOUNT,
      realm: 0,
      shard: 0,
      type: 'ACCOUNT',
      memo: 'in june',
      deleted: false,
      timestamp_range: `[${ns('1686000000')},${T(0)})`,
    });
    const snapshot = await worker.get(`/api/v1/accounts/${ACCOUNT}?timestamp=lte:1686400000`);
    expect(snapshot.body.memo).toBe('in june');
    expect(snapshot.body.balance).toEqual({
      balance: 3000,
      timestamp: '1686312900.000000000',
      tokens: [{ token_id: '0.0.5001', balance: 3 }],
    });
  });

  it('shows delegation_address only when the setting enables it', async () => {
    expect((await worker.get(`/api/v1/accounts/${ACCOUNT}`)).body).not.toHaveProperty('delegation_address');
    await worker.setState({ config: { response: { enableDelegationAddress: true } } });
    try {
      expect((await worker.get(`/api/v1/accounts/${ACCOUNT}`)).body.delegation_address).toBe('0x');
    } finally {
      await worker.setState({});
    }
  });

  it.each([
    ['/api/v1/accounts/0.0.2', 404, 'Not found'],
    [`/api/v1/accounts/${base32Encode(Buffer.alloc(32, 0x99))}`, 404, 'No account with a matching alias found'],
    [`/api/v1/accounts/0x${'ee'.repeat(20)}`, 404, 'Not found'],
    [`/api/v1/accounts/${ACCOUNT}?timestamp=gt:2&timestamp=lte:2`, 404, 'Timestamp range is empty'],
    ['/api/v1/accounts/0.0.x', 400, 'Invalid parameter: idOrAliasOrEvmAddress'],
    // a foreign shard is taken as given (for an id, not for an EVM address)
    ['/api/v1/accounts/1.0.1001', 404, 'Not found'],
    [`/api/v1/accounts/1.0.${EVM_ADDRESS.toString('hex')}`, 400, 'Invalid parameter: idOrAliasOrEvmAddress'],
    [`/api/v1/accounts/${ACCOUNT}?transactiontype=nope`, 400, 'Invalid parameter: transactiontype'],
    [`/api/v1/accounts/${ACCOUNT}?balance=true`, 400, 'Unknown query parameter: balance'],
  ])('answers %s with %i %s', async (path, status, message) => {
    const res = await worker.get(path);
    expect(res.status).toBe(status);
    expect(res.body._status.messages[0].message).toBe(message);
  });

  it('answers 404 for the removed hook routes', async () => {
    for (const path of [`/api/v1/accounts/${ACCOUNT}/hooks`, `/api/v1/accounts/${ACCOUNT}/hooks/1/storage`]) {
      const res = await worker.get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ _status: { messages: [{ message: 'Not found' }] } });
    }
  });
});

describe('GET /api/v1/accounts', () => {
  it('lists accounts by id with their balances, without the synthetic treasury, and pages', async () => {
    const res = await worker.get('/api/v1/accounts?limit=1');
    expect(res.headers.get('cache-control')).toBe('public, max-age=10');
    expect(res.body.accounts.map((a: { account: string }) => a.account)).toEqual(['0.0.1001']);
    expect(res.body.links.next).toBe('/api/v1/accounts?limit=1&account.id=gt:0.0.1001');
    const next = await worker.get(res.body.links.next);
    expect(next.body.accounts.map((a: { account: string }) => a.account)).toEqual(['0.0.1002']);
  });

  it('lists without balances with balance=false, and filters by balance and public key', async () => {
    const noBalance = await worker.get('/api/v1/accounts?balance=false&account.id=0.0.2');
    expect(noBalance.body.accounts).toMatchObject([{ account: '0.0.2', balance: null }]);
    const rich = await worker.get('/api/v1/accounts?account.balance=gte:100');
    expect(rich.body.accounts.map((a: { account: string }) => a.account)).toEqual(['0.0.1001']);
  });

  it('reports every invalid parameter in order', async () => {
    const res = await worker.get('/api/v1/accounts?account.id=x&limit=0&timestamp=1');
    expect(res.status).toBe(400);
    expect(res.body._status.messages).toEqual([
      { message: 'Invalid parameter: account.id' },
      { message: 'Invalid parameter: limit' },
      { message: 'Unknown query parameter: timestamp' },
    ]);
  });
});

describe('GET /api/v1/accounts/{id}/{rewards,tokens,allowances/crypto}', () => {
  it('lists rewards, token relationships and hbar allowances with something left', async () => {
    const rewards = await worker.get(`/api/v1/accounts/${ACCOUNT}/rewards`);
    expect(rewards.headers.get('cache-control')).toBe('public, max-age=60');
    expect(rewards.body).toEqual({
      rewards: [{ account_id: '0.0.1001', amount: 5, timestamp: '1700000000.000000002' }],
      links: { next: null },
    });
    const tokens = await worker.get(`/api/v1/accounts/${ACCOUNT}/tokens?limit=1`);
    expect(tokens.body.tokens).toEqual([
      {
        automatic_association: null,
        balance: 30,
        created_timestamp: '0.000000001',
        decimals: 2,
        freeze_status: 'NOT_APPLICABLE',
        kyc_status: 'GRANTED',
        token_id: '0.0.5001',
      },
    ]);
    expect(tokens.body.links.next).toBe('/api/v1/accounts/1001/tokens?limit=1&token.id=gt:0.0.5001');
    const unknownToken = await worker.get(`/api/v1/accounts/${ACCOUNT}/tokens?token.id=gt:0.0.5001`);
    expect(unknownToken.body.tokens[0]).toMatchObject({ token_id: '0.0.5002', decimals: null, freeze_status: null });
    const allowances = await worker.get(`/api/v1/accounts/${ACCOUNT}/allowances/crypto`);
    expect(allowances.body.allowances.map((a: { spender: string }) => a.spender)).toEqual(['0.0.3001']);
  });

  it('answers 404 for rewards and tokens of an unknown account, and 400 for ne filters', async () => {
    expect((await worker.get('/api/v1/accounts/0.0.4242/rewards')).status).toBe(404);
    expect((await worker.get('/api/v1/accounts/0.0.4242/tokens')).status).toBe(404);
    // The account is checked before the parameters, as the reference does.
    expect((await worker.get('/api/v1/accounts/0.0.4242/tokens?limit=x')).status).toBe(404);
    expect((await worker.get(`/api/v1/accounts/${ACCOUNT}/tokens?limit=x`)).status).toBe(400);
    const ne = await worker.get(`/api/v1/accounts/${ACCOUNT}/rewards?timestamp=ne:1`);
    expect(ne.body._status.messages[0].message).toBe('Not equals (ne) operator is not supported for timestamp');
    const spender = await worker.get(`/api/v1/accounts/${ACCOUNT}/allowances/crypto?spender.id=ne:1`);
    expect(spender.body._status.messages[0].message).toBe(
      'Not equal (ne) comparison operator is not supported for spender.id',
    );
  });
});
