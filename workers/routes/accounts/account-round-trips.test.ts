import { describe, expect, it } from 'vitest';
import { insertCryptoTransfer, insertTransaction, ns } from '../../../test/harness/factories.ts';
import { insertEntity } from '../../../test/harness/factories-tokens.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';
import { base32Encode } from '../../format/base32.ts';

const ACCOUNT = 1001;
const EVM_ADDRESS = Buffer.alloc(20, 0xab);
/** Held by a token, which is not an account. */
const TOKEN_EVM_ADDRESS = Buffer.alloc(20, 0xcd);
/** Held by two live accounts at once: an inconsistent database. */
const SHARED_EVM_ADDRESS = Buffer.alloc(20, 0xef);
/** An ED25519 key alias of the account, as its path segment spells it (base32). */
const ALIAS = Buffer.concat([Buffer.from([0x12, 0x20]), Buffer.alloc(32, 0x5a)]);
const ALIAS_TEXT = base32Encode(ALIAS) as string;
/** Alias and EVM address of an account whose deleted flag is null. */
const NULL_DELETED_ALIAS = Buffer.concat([Buffer.from([0x12, 0x20]), Buffer.alloc(32, 0x6b)]);
const NULL_DELETED_EVM_ADDRESS = Buffer.alloc(20, 0x6b);
const T = (n: number) => ns('1700000000') + BigInt(n);

// The database 40 ms away: statements sent together overlap at the proxy, statements sent in turn do not.
const { worker } = registerWorkerSuite({
  dbDelayMs: 40,
  seed: async (db) => {
    await insertEntity(db.sql, ACCOUNT, T(0), {
      alias: ALIAS,
      evm_address: EVM_ADDRESS,
      balance: 50,
      balance_timestamp: T(1),
    });
    await insertEntity(db.sql, 1002, T(0), { evm_address: TOKEN_EVM_ADDRESS, type: 'TOKEN' });
    await insertEntity(db.sql, 1003, T(0), { evm_address: SHARED_EVM_ADDRESS });
    await insertEntity(db.sql, 1004, T(0), { evm_address: SHARED_EVM_ADDRESS });
    await insertEntity(db.sql, 1005, T(0), {
      alias: NULL_DELETED_ALIAS,
      evm_address: NULL_DELETED_EVM_ADDRESS,
      deleted: null,
    });
    await insertTransaction(db.sql, { consensus_timestamp: T(1), payer_account_id: BigInt(ACCOUNT) });
    await insertCryptoTransfer(db.sql, {
      consensus_timestamp: T(1),
      entity_id: BigInt(ACCOUNT),
      amount: -10n,
      payer_account_id: BigInt(ACCOUNT),
    });
  },
});

/** The response, the round trips to the database it waited for in turn and the statements it ran. */
async function roundTripsOf(path: string) {
  const before = { roundTrips: worker.dbSequentialRoundTrips, statements: worker.dbQueries };
  const res = await worker.get(path);
  return {
    status: res.status,
    body: res.body,
    roundTrips: worker.dbSequentialRoundTrips - before.roundTrips,
    statements: worker.dbQueries - before.statements,
  };
}

const NOT_FOUND = { _status: { messages: [{ message: 'Not found' }] } };

describe('GET /api/v1/accounts/{id} and its rewards far from their database', () => {
  it('reads the account and its transactions in one round trip', async () => {
    const res = await roundTripsOf(`/api/v1/accounts/0.0.${ACCOUNT}`);
    expect(res.status).toBe(200);
    expect(res.body.transactions).toHaveLength(1);
    expect(res.roundTrips).toBe(1);
  });

  it('finds an EVM address in the account statement, then reads its transactions in one more round trip', async () => {
    const res = await roundTripsOf(`/api/v1/accounts/0x${EVM_ADDRESS.toString('hex')}`);
    expect(res.status).toBe(200);
    expect(res.body.account).toBe(`0.0.${ACCOUNT}`);
    expect(res.body.balance.balance).toBe(50);
    expect(res.body.transactions).toHaveLength(1);
    expect(res).toMatchObject({ roundTrips: 2, statements: 2 });
  });

  it('reads an account by EVM address without its transactions in one round trip', async () => {
    const res = await roundTripsOf(`/api/v1/accounts/0x${EVM_ADDRESS.toString('hex')}?transactions=false`);
    expect(res.status).toBe(200);
    expect(res.body.account).toBe(`0.0.${ACCOUNT}`);
    expect(res.body.evm_address).toBe(`0x${EVM_ADDRESS.toString('hex')}`);
    expect(res.body.transactions).toEqual([]);
    expect(res).toMatchObject({ roundTrips: 1, statements: 1 });
  });

  it('answers 404 for an EVM address of no account, and 500 for one two live accounts share', async () => {
    for (const address of [Buffer.alloc(20, 0x12), TOKEN_EVM_ADDRESS]) {
      const res = await roundTripsOf(`/api/v1/accounts/0x${address.toString('hex')}`);
      expect(res).toEqual({ status: 404, body: NOT_FOUND, roundTrips: 1, statements: 1 });
    }
    const shared = await roundTripsOf(`/api/v1/accounts/0x${SHARED_EVM_ADDRESS.toString('hex')}`);
    expect(shared).toEqual({
      status: 500,
      body: { _status: { messages: [{ message: 'Internal error' }] } },
      roundTrips: 1,
      statements: 1,
    });
  });

  it('reads an account by alias in one round trip, and answers an alias of nobody as the reference does', async () => {
    const res = await roundTripsOf(`/api/v1/accounts/${ALIAS_TEXT}?transactions=false`);
    expect(res.status).toBe(200);
    expect(res.body.account).toBe(`0.0.${ACCOUNT}`);
    expect(res.body.alias).toBe(ALIAS_TEXT);
    expect(res).toMatchObject({ roundTrips: 1, statements: 1 });
    const withTransactions = await roundTripsOf(`/api/v1/accounts/${ALIAS_TEXT}`);
    expect(withTransactions.body.transactions).toHaveLength(1);
    expect(withTransactions).toMatchObject({ status: 200, roundTrips: 2, statements: 2 });
    const missing = await roundTripsOf(`/api/v1/accounts/${base32Encode(Buffer.alloc(34, 0x33))}`);
    expect(missing).toEqual({
      status: 404,
      body: { _status: { messages: [{ message: 'No account with a matching alias found' }] } },
      roundTrips: 1,
      statements: 1,
    });
  });

  it('counts a deleted flag of null as live by alias but not by EVM address, as the reference does', async () => {
    const byAlias = await roundTripsOf(`/api/v1/accounts/${base32Encode(NULL_DELETED_ALIAS)}?transactions=false`);
    expect(byAlias).toMatchObject({ status: 200, body: { account: '0.0.1005' }, roundTrips: 1 });
    const byAddress = await roundTripsOf(`/api/v1/accounts/0x${NULL_DELETED_EVM_ADDRESS.toString('hex')}`);
    expect(byAddress).toMatchObject({ status: 404, body: NOT_FOUND, roundTrips: 1 });
  });

  it('resolves an EVM address first when the account is asked for at a time', async () => {
    const res = await roundTripsOf(
      `/api/v1/accounts/0x${EVM_ADDRESS.toString('hex')}?timestamp=lte:1700000000.000000005`,
    );
    expect(res.status).toBe(200);
    expect(res.body.account).toBe(`0.0.${ACCOUNT}`);
    expect(res.roundTrips).toBe(2);
  });

  it('reads staking rewards, and checks the account exists, in one round trip', async () => {
    const res = await roundTripsOf(`/api/v1/accounts/0.0.${ACCOUNT}/rewards`);
    expect(res).toMatchObject({ status: 200, body: { rewards: [], links: { next: null } }, roundTrips: 1 });
    const missing = await roundTripsOf('/api/v1/accounts/0.0.4242/rewards');
    expect(missing).toMatchObject({ status: 404, body: NOT_FOUND, roundTrips: 1 });
  });

  it('answers 404 for an unknown account in one round trip', async () => {
    const res = await roundTripsOf('/api/v1/accounts/0.0.4242');
    expect(res).toMatchObject({ status: 404, body: NOT_FOUND, roundTrips: 1 });
  });
});
