import { describe, expect, it } from 'vitest';
import { insertCryptoTransfer, insertTransaction, ns } from '../../../test/harness/factories.ts';
import { insertEntity } from '../../../test/harness/factories-tokens.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';

const ACCOUNT = 1001;
const EVM_ADDRESS = Buffer.alloc(20, 0xab);
const T = (n: number) => ns('1700000000') + BigInt(n);

// The database 40 ms away: statements sent together overlap at the proxy, statements sent in turn do not.
const { worker } = registerWorkerSuite({
  dbDelayMs: 40,
  seed: async (db) => {
    await insertEntity(db.sql, ACCOUNT, T(0), { evm_address: EVM_ADDRESS, balance: 50, balance_timestamp: T(1) });
    await insertTransaction(db.sql, { consensus_timestamp: T(1), payer_account_id: BigInt(ACCOUNT) });
    await insertCryptoTransfer(db.sql, {
      consensus_timestamp: T(1),
      entity_id: BigInt(ACCOUNT),
      amount: -10n,
      payer_account_id: BigInt(ACCOUNT),
    });
  },
});

/** The response and the round trips to the database it waited for in turn. */
async function roundTripsOf(path: string) {
  const before = worker.dbSequentialRoundTrips;
  const res = await worker.get(path);
  return { status: res.status, body: res.body, roundTrips: worker.dbSequentialRoundTrips - before };
}

describe('GET /api/v1/accounts/{id} and its rewards far from their database', () => {
  it('reads the account and its transactions in one round trip', async () => {
    const res = await roundTripsOf(`/api/v1/accounts/0.0.${ACCOUNT}`);
    expect(res.status).toBe(200);
    expect(res.body.transactions).toHaveLength(1);
    expect(res.roundTrips).toBe(1);
  });

  it('resolves an EVM address first, as the reference does, then reads in one more round trip', async () => {
    const res = await roundTripsOf(`/api/v1/accounts/0x${EVM_ADDRESS.toString('hex')}`);
    expect(res.status).toBe(200);
    expect(res.body.account).toBe(`0.0.${ACCOUNT}`);
    expect(res.roundTrips).toBe(2);
  });

  it('reads staking rewards, and checks the account exists, in one round trip', async () => {
    const res = await roundTripsOf(`/api/v1/accounts/0.0.${ACCOUNT}/rewards`);
    expect(res).toEqual({ status: 200, body: { rewards: [], links: { next: null } }, roundTrips: 1 });
    const missing = await roundTripsOf('/api/v1/accounts/0.0.4242/rewards');
    expect(missing).toEqual({
      status: 404,
      body: { _status: { messages: [{ message: 'Not found' }] } },
      roundTrips: 1,
    });
  });

  it('answers 404 for an unknown account in one round trip', async () => {
    const res = await roundTripsOf('/api/v1/accounts/0.0.4242');
    expect(res).toEqual({ status: 404, body: { _status: { messages: [{ message: 'Not found' }] } }, roundTrips: 1 });
  });
});
