/**
 * The supply from the first block: a simulated network of 40 one-minute files ingested from genesis, with its genesis
 * balance file. No account may show a negative balance at any transaction, every balance snapshot (the genesis file
 * and the historical snapshots every 15 minutes) must sum to the total supply, as must the current balances, and the
 * REST API must say the same (`/api/v1/balances`, now and at each snapshot, and `/api/v1/network/supply`). Without
 * the genesis balance file the same checks fail: the treasury goes negative.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestStreams } from '../test/harness/simnet-stages.ts';
import { createTestDatabase } from '../test/harness/test-database.ts';
import { registerWorkerSuite } from '../test/harness/worker-suite.ts';
import { TOTAL_SUPPLY_TINYBARS } from './ledger/ledger.ts';
import { parseOptions } from './main.ts';
import { simulate } from './run.ts';

const SUPPLY = TOTAL_SUPPLY_TINYBARS.toString();

/** Every way the database breaks the supply: negative balances, snapshots and current balances not summing to it. */
async function supplyProblems(sql: pg.ClientBase): Promise<string[]> {
  const problems: string[] = [];
  const rows = async (text: string) => (await sql.query(text)).rows;
  // Each account's balance after every transaction: its balance in the first snapshot plus its transfers since.
  for (const row of await rows(
    `with genesis as (select min(consensus_timestamp) as at from account_balance_file),
     start as (select ab.account_id, ab.balance from account_balance ab, genesis g where ab.consensus_timestamp = g.at),
     moves as (select entity_id, consensus_timestamp, sum(amount) as amount from crypto_transfer, genesis g
                where errata is null and consensus_timestamp > coalesce(g.at, 0) group by 1, 2),
     running as (select m.entity_id, m.consensus_timestamp,
                        coalesce(s.balance, 0) + sum(m.amount) over (partition by m.entity_id order by m.consensus_timestamp) as balance
                   from moves m left join start s on s.account_id = m.entity_id)
     select entity_id::text, min(balance)::text as lowest from running group by entity_id having min(balance) < 0`,
  )) {
    problems.push(`0.0.${row.entity_id} goes down to ${row.lowest}`);
  }
  for (const row of await rows(
    `select f.consensus_timestamp::text as at, f.synthetic,
            (select sum(balance) from (select distinct on (account_id) balance from account_balance
                                        where consensus_timestamp <= f.consensus_timestamp
                                        order by account_id, consensus_timestamp desc) latest)::text as total,
            (select count(*) from account_balance where consensus_timestamp = f.consensus_timestamp and balance < 0)::int as negative
       from account_balance_file f order by f.consensus_timestamp`,
  )) {
    if (row.total !== SUPPLY || row.negative > 0) {
      problems.push(`snapshot ${row.at}: ${row.total}, ${row.negative} negative`);
    }
  }
  const [current] = await rows(
    `select sum(balance)::text as total, count(*) filter (where balance < 0)::int as negative
       from entity where type in ('ACCOUNT', 'CONTRACT')`,
  );
  if (current?.total !== SUPPLY || current?.negative > 0) {
    problems.push(`current balances: ${current?.total}, ${current?.negative} negative`);
  }
  return problems;
}

let out: string;

beforeAll(async () => {
  out = mkdtempSync(path.join(tmpdir(), 'simulator-supply-'));
  // 40 minutes of consensus time: the genesis file, then a historical snapshot at 15 and at 30 minutes.
  await simulate({
    ...parseOptions(['--out', out, '--files', '40', '--tps', '1', '--seed', 'supply']),
    periodMs: 60_000,
  });
}, 300_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('a simulated network ingested from genesis with its genesis balance file', () => {
  const { db, worker } = registerWorkerSuite({
    seed: async (fresh) => {
      await ingestStreams(out, fresh.url);
    },
    timeout: 300_000,
  });

  it('never shows a negative balance, and every snapshot and the current balances sum to the total supply', async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const files = await client.query('select synthetic from account_balance_file order by consensus_timestamp');
      expect(files.rows).toEqual([{ synthetic: false }, { synthetic: true }, { synthetic: true }]);
      expect(await supplyProblems(client)).toEqual([]);
    } finally {
      await client.end();
    }
  });

  /** The balances `/api/v1/balances` lists, summed without the treasury's: the released supply. */
  async function releasedOnBalances(query: string): Promise<{ released: bigint; accounts: number }> {
    let released = 0n;
    let accounts = 0;
    let next: string | null = `/api/v1/balances?limit=100${query}`;
    while (next) {
      const response = await worker.get(next);
      expect(response.status, next).toBe(200);
      for (const entry of response.body.balances) {
        expect(entry.balance, entry.account).toBeGreaterThanOrEqual(0);
        // The treasury is the one account of the unreleased supply here (and its balance, beyond 2^53, a JSON
        // number read as the nearest double).
        if (entry.account !== '0.0.2') released += BigInt(entry.balance);
        accounts++;
      }
      next = response.body.links?.next ?? null;
    }
    return { released, accounts };
  }

  it('answers /api/v1/balances and /api/v1/network/supply with the same supply, now and at every snapshot', async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const now = await releasedOnBalances('');
      const treasury = await client.query('select balance::text from entity where id = 2');
      const supply = await worker.get('/api/v1/network/supply');
      expect(supply.status).toBe(200);
      expect(supply.body.total_supply).toBe(SUPPLY);
      // The treasury holds the whole unreleased supply here: the other accounts hold what is released.
      expect(supply.body.released_supply).toBe(String(TOTAL_SUPPLY_TINYBARS - BigInt(treasury.rows[0].balance)));
      expect(now.released.toString()).toBe(supply.body.released_supply);
      const snapshots = await client.query(
        `select f.consensus_timestamp::text as at, ab.balance::text as treasury
           from account_balance_file f join account_balance ab on ab.consensus_timestamp = f.consensus_timestamp
          where ab.account_id = 2 order by 1`,
      );
      expect(snapshots.rows).toHaveLength(3);
      for (const { at, treasury: held } of snapshots.rows) {
        const timestamp = `${at.slice(0, -9)}.${at.slice(-9)}`;
        const then = await releasedOnBalances(`&timestamp=${timestamp}`);
        const supplyThen = await worker.get(`/api/v1/network/supply?timestamp=${timestamp}`);
        expect(supplyThen.body.released_supply, timestamp).toBe(String(TOTAL_SUPPLY_TINYBARS - BigInt(held)));
        expect(then.released.toString(), timestamp).toBe(supplyThen.body.released_supply);
        expect(then.accounts).toBeGreaterThan(0);
      }
    } finally {
      await client.end();
    }
  });
});

describe('the same network ingested without its genesis balance file', () => {
  it('fails the same checks: the treasury goes negative and nothing sums to the supply', async () => {
    const withoutGenesis = mkdtempSync(path.join(tmpdir(), 'simulator-supply-records-'));
    const fresh = await createTestDatabase();
    try {
      cpSync(out, withoutGenesis, {
        recursive: true,
        filter: (source) => !source.includes(`${path.sep}accountBalances`),
      });
      await ingestStreams(withoutGenesis, fresh.url);
      const client = new pg.Client({ connectionString: fresh.url });
      await client.connect();
      try {
        const problems = await supplyProblems(client);
        expect(problems.some((p) => p.startsWith('0.0.2 goes down to -'))).toBe(true);
        expect(problems.some((p) => p.startsWith('current balances:'))).toBe(true);
      } finally {
        await client.end();
      }
    } finally {
      await fresh.drop();
      rmSync(withoutGenesis, { recursive: true, force: true });
    }
  }, 300_000);
});
