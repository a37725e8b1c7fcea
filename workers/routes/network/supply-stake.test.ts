import { beforeAll, describe, expect, it } from 'vitest';
import { insertRow } from '../../../test/harness/factories.ts';
import { insertNetworkStake } from '../../../test/harness/factories-network.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';

const SECOND = 1_000_000_000n;
const ns = (iso: string) => BigInt(Date.parse(iso)) * 1_000_000n;
const ts = (value: bigint) => `${value / SECOND}.${(value % SECOND).toString().padStart(9, '0')}`;
const TOTAL = 5_000_000_000_000_000_000n;
const notFound = (detail: string) => ({ _status: { messages: [{ message: 'Not Found', detail }] } });

async function insertAccount(num: bigint, balance: bigint, balanceTimestamp: bigint) {
  await insertRow(db.sql, 'entity', {
    id: num,
    num,
    realm: 0,
    shard: 0,
    type: 'ACCOUNT',
    balance,
    balance_timestamp: balanceTimestamp,
    timestamp_range: '[1,)',
  });
}

async function insertBalance(account: bigint, balance: bigint, at: bigint) {
  await insertRow(db.sql, 'account_balance', { account_id: account, balance, consensus_timestamp: at });
}

const { db, worker } = registerWorkerSuite();

describe('GET /api/v1/network/supply', () => {
  it('answers 404 without balances', async () => {
    for (const query of ['', '?timestamp=1700000000', '?q=totalcoins']) {
      const res = await worker.get(`/api/v1/network/supply${query}`);
      expect(res).toMatchObject({ status: 404, body: notFound('Network supply not found') });
    }
  });

  describe('from current balances', () => {
    const EARLY = ns('2024-01-01T00:00:00Z');
    const LATE = ns('2024-02-01T00:00:00Z');

    beforeAll(async () => {
      await insertAccount(2n, 1_000_000_000_000_000_000n, EARLY);
      await insertAccount(42n, 10n, LATE);
      await insertAccount(500n, 5n, EARLY);
      // outside the unreleased supply accounts
      await insertAccount(98n, 999n, LATE + 1n);
      await insertAccount(751n, 7n, LATE + 1n);
      await worker.setState({});
    });

    it('sums the unreleased supply accounts', async () => {
      const res = await worker.get('/api/v1/network/supply');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=60');
      expect(res.body).toEqual({
        released_supply: '3999999999999999985',
        timestamp: ts(LATE),
        total_supply: '5000000000000000000',
      });
    });

    it.each([
      ['totalcoins', '50000000000.00000000'],
      ['TotalCoins', '50000000000.00000000'],
      ['total_coins', '50000000000.00000000'],
      ['circulating', '39999999999.99999985'],
      ['CIRCULATING&q=nonsense', '39999999999.99999985'],
    ])('answers q=%s in hbars as text', async (q, text) => {
      const res = await worker.get(`/api/v1/network/supply?q=${q}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(res.headers.get('cache-control')).toBe('public, max-age=60');
      expect(res.body).toBe(text);
    });

    it('answers JSON for an empty q', async () => {
      const res = await worker.get('/api/v1/network/supply?q=');
      expect(res.body.released_supply).toBe('3999999999999999985');
    });
  });

  describe('from balance snapshots', () => {
    const OLD = ns('2023-01-15T00:00:00Z');
    const FEB = ns('2023-02-10T00:00:00Z');
    const MARCH = ns('2023-03-10T00:00:00Z');

    beforeAll(async () => {
      await insertBalance(2n, 100n, OLD);
      await insertBalance(44n, 1000n, OLD);
      await insertBalance(2n, 200n, FEB);
      await insertBalance(2n, 300n, MARCH);
      await insertBalance(42n, 40n, MARCH);
      await insertBalance(1000n, 5n, MARCH);
      await worker.setState({});
    });

    it.each([
      [`timestamp=${ts(MARCH)}`, 340n, MARCH],
      [`timestamp=eq:${ts(MARCH)}`, 340n, MARCH],
      [`timestamp=lte:${ts(MARCH)}`, 340n, MARCH],
      [`timestamp=lt:${ts(MARCH)}`, 200n, FEB],
      [`timestamp=gte:${ts(FEB)}&timestamp=lt:${ts(MARCH)}`, 200n, FEB],
      // the window reaches back to the first of the month before the upper bound: 0.0.44's January snapshot
      // counts for a bound in February, not for one in March
      [`timestamp=lte:${ts(FEB)}`, 1200n, FEB],
      [`timestamp=lte:${ts(OLD)}`, 1100n, OLD],
    ])('uses the latest snapshot per account for %s', async (query, unreleased, at) => {
      const res = await worker.get(`/api/v1/network/supply?${query}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        released_supply: (TOTAL - unreleased).toString(),
        timestamp: ts(at),
        total_supply: TOTAL.toString(),
      });
    });

    it('answers 404 when no snapshot lies in the window', async () => {
      for (const query of ['timestamp=lt:1673740800', 'timestamp=gte:1']) {
        const res = await worker.get(`/api/v1/network/supply?${query}`);
        expect(res).toMatchObject({ status: 404, body: notFound('Network supply not found') });
      }
    });
  });

  it.each([
    ['timestamp=gt:2&timestamp=lt:1', 'Invalid range provided for timestamp'],
    ['timestamp=1&timestamp=lt:2&timestamp=gt:0', 'timestamp size must be between 0 and 2'],
    ['timestamp=invalid', "Failed to convert 'timestamp'"],
    ['timestamp=ne:1', "Failed to convert 'timestamp'"],
    ['q=invalid', "Failed to convert 'q'"],
  ])('answers 400 for %s', async (query, detail) => {
    const res = await worker.get(`/api/v1/network/supply?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ _status: { messages: [{ message: 'Bad Request', detail }] } });
  });
});

describe('GET /api/v1/network/stake', () => {
  it('answers 404 before any staking period is recorded', async () => {
    const res = await worker.get('/api/v1/network/stake');
    expect(res).toMatchObject({ status: 404, body: notFound('No network stake data found') });
  });

  it('shows the latest staking period, fee fractions as Java floats', async () => {
    const period = ns('2024-06-01T00:00:00Z');
    await insertNetworkStake(db.sql, { consensus_timestamp: period - SECOND, stake_total: 1 });
    await insertNetworkStake(db.sql, { consensus_timestamp: period + 5n * SECOND, staking_period: period - 1n });
    await worker.setState({});
    const res = await fetch(`${worker.baseUrl}/api/v1/network/stake?ignored=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    const text = await res.text();
    expect(text).toContain('"node_reward_fee_fraction":0.1,');
    expect(text).toContain('"staking_reward_fee_fraction":0.33333334,');
    expect(JSON.parse(text)).toEqual({
      max_stake_rewarded: 10,
      max_staking_reward_rate_per_hbar: 17808,
      max_total_reward: 20,
      node_reward_fee_fraction: 0.1,
      reserved_staking_rewards: 30,
      reward_balance_threshold: 40,
      stake_total: 35_000_000_000_000_000,
      staking_period: { from: ts(period), to: ts(period + 86_400n * SECOND) },
      staking_period_duration: 1440,
      staking_periods_stored: 365,
      staking_reward_fee_fraction: 0.33333334,
      staking_reward_rate: 100_000_000_000,
      staking_start_threshold: 25_000_000_000_000_000,
      unreserved_staking_reward_balance: 50,
    });
  });

  it('shows a fraction over a zero denominator as 0.0', async () => {
    await insertNetworkStake(db.sql, {
      consensus_timestamp: ns('2024-07-01T00:00:00Z'),
      node_reward_fee_denominator: 0,
      staking_reward_fee_numerator: 1,
      staking_reward_fee_denominator: 1,
    });
    await worker.setState({});
    const text = await (await fetch(`${worker.baseUrl}/api/v1/network/stake`)).text();
    expect(text).toContain('"node_reward_fee_fraction":0.0,');
    expect(text).toContain('"staking_reward_fee_fraction":1.0,');
  });
});
