import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/harness/test-database.ts';
import { ingestItems, rowsOf } from '../testing/ingest-records.ts';

const ACCOUNT = 1700;
const TOKEN = 1800;
const ed25519 = (fill: number) => ({ ed25519: Buffer.alloc(32, fill) });
/** Two keys: no single primitive key to search by. */
const TWO_KEYS = { keyList: { keys: [ed25519(1), ed25519(2)] } };

const db = useTestDatabase();

describe('entity.public_key', () => {
  it('is cleared by an update to a key that does not reduce to one primitive key', async () => {
    await ingestItems(db.sql, [
      { at: 100, body: { cryptoCreateAccount: { key: ed25519(9) } }, receipt: { accountID: { accountNum: ACCOUNT } } },
      {
        at: 101,
        body: { tokenCreation: { name: 'T', symbol: 'T', treasury: { accountNum: ACCOUNT }, adminKey: ed25519(9) } },
        receipt: { tokenID: { tokenNum: TOKEN } },
      },
    ]);
    await ingestItems(db.sql, [
      { at: 200, body: { cryptoUpdateAccount: { accountIDToUpdate: { accountNum: ACCOUNT }, key: TWO_KEYS } } },
      { at: 201, body: { tokenUpdate: { token: { tokenNum: TOKEN }, adminKey: TWO_KEYS } } },
    ]);
    expect(
      await rowsOf(db.sql, `select id::int, public_key from entity where id in (${ACCOUNT}, ${TOKEN}) order by id`),
    ).toEqual([
      { id: ACCOUNT, public_key: null },
      { id: TOKEN, public_key: null },
    ]);
    expect(await rowsOf(db.sql, `select id::int, public_key from entity_history order by id`)).toEqual([
      { id: ACCOUNT, public_key: '09'.repeat(32) },
      { id: TOKEN, public_key: '09'.repeat(32) },
    ]);
  });
});

const DAY = 86_400n;

describe('the staking columns of an account or contract', () => {
  it('leave staked_account_id NULL on a create without one and start the period of an account stake that day', async () => {
    const at = Number(20_000n * DAY) + 100;
    await ingestItems(db.sql, [
      { at, body: { cryptoCreateAccount: { key: ed25519(3) } }, receipt: { accountID: { accountNum: 1900 } } },
      {
        at: at + 1,
        body: { cryptoCreateAccount: { key: ed25519(3), staked_account_id: { accountNum: 800 } } },
        receipt: { accountID: { accountNum: 1901 } },
      },
      {
        at: at + 2,
        body: { contractCreateInstance: { gas: 1, staked_node_id: 3, decline_reward: true } },
        receipt: { contractID: { contractNum: 1902 } },
      },
      {
        at: at + 3,
        body: { cryptoUpdateAccount: { accountIDToUpdate: { accountNum: 1900 }, decline_reward: { value: true } } },
      },
    ]);
    expect(
      await rowsOf(
        db.sql,
        `select id::int, staked_account_id::int, staked_node_id::int, stake_period_start::int, decline_reward
           from entity where id between 1900 and 1902 order by id`,
      ),
    ).toEqual([
      { id: 1900, staked_account_id: null, staked_node_id: -1, stake_period_start: 20_000, decline_reward: true },
      { id: 1901, staked_account_id: 800, staked_node_id: -1, stake_period_start: 20_000, decline_reward: false },
      { id: 1902, staked_account_id: null, staked_node_id: 3, stake_period_start: 20_000, decline_reward: true },
    ]);
  });

  it('are not read from records before services 0.27', async () => {
    await ingestItems(
      db.sql,
      [
        {
          at: 700,
          body: { cryptoCreateAccount: { key: ed25519(3), staked_node_id: 1, decline_reward: true } },
          receipt: { accountID: { accountNum: 1910 } },
        },
      ],
      { hapiMinor: 26 },
    );
    expect(
      await rowsOf(
        db.sql,
        'select staked_account_id, staked_node_id::int, stake_period_start::int, decline_reward from entity where id = 1910',
      ),
    ).toEqual([{ staked_account_id: null, staked_node_id: -1, stake_period_start: -1, decline_reward: false }]);
  });
});

describe('other entity columns the importer sets', () => {
  it("keep a body's proxy account, leave an unknown obtainer NULL and count a present empty valid duration as 0", async () => {
    await ingestItems(db.sql, [
      {
        at: 800,
        body: {
          cryptoCreateAccount: { key: ed25519(4), proxyAccountID: { accountNum: 3 } },
          transactionValidDuration: {},
        },
        receipt: { accountID: { accountNum: 1920 } },
      },
      { at: 801, body: { cryptoDelete: { deleteAccountID: { accountNum: 1920 } } } },
    ]);
    expect(
      await rowsOf(db.sql, 'select proxy_account_id::int, obtainer_id, deleted from entity where id = 1920'),
    ).toEqual([{ proxy_account_id: 3, obtainer_id: null, deleted: true }]);
    expect(
      await rowsOf(
        db.sql,
        `select valid_duration_seconds::int from transaction where consensus_timestamp = ${800n * 10n ** 9n}`,
      ),
    ).toEqual([{ valid_duration_seconds: 0 }]);
  });
});

describe('entity.stake_period_start after a staking reward', () => {
  it('is the day before the payout, unless a staking change of the same file started the period that day', async () => {
    const day = 20_100n;
    const at = Number(day * DAY) + 50;
    const reward = (account: number) => ({
      paid_staking_rewards: [{ accountID: { accountNum: account }, amount: 10 }],
    });
    await ingestItems(db.sql, [
      { at, body: { cryptoCreateAccount: { key: ed25519(5) } }, receipt: { accountID: { accountNum: 1930 } } },
      { at: at + 1, body: { cryptoCreateAccount: { key: ed25519(5) } }, receipt: { accountID: { accountNum: 1931 } } },
      {
        at: at + 2,
        body: { cryptoUpdateAccount: { accountIDToUpdate: { accountNum: 1930 }, staked_node_id: 0 } },
        record: reward(1930),
      },
      { at: at + 3, body: { cryptoTransfer: {} }, record: reward(1931) },
    ]);
    expect(
      await rowsOf(db.sql, 'select id::int, stake_period_start::int from entity where id in (1930, 1931) order by id'),
    ).toEqual([
      { id: 1930, stake_period_start: Number(day) },
      { id: 1931, stake_period_start: Number(day) - 1 },
    ]);
  });
});
