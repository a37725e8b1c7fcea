/**
 * One ledger across restarts: the simulator writes a few files, is continued twice (as `npm start` does after each
 * restart), and everything is ingested into a fresh database and served by the Worker. No two entities may share an
 * EVM address or alias, every account with an EVM address must be found by it, the model's balances must be what
 * the API serves, and entities created before a restart must take part in transactions after it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestStreams } from '../test/harness/simnet-stages.ts';
import { registerWorkerSuite } from '../test/harness/worker-suite.ts';
import type { LedgerSnapshot } from './ledger/export.ts';
import { parseOptions } from './main.ts';
import { simulate } from './run.ts';
import { LEDGER_FILE } from './write/layout.ts';

describe('a simulated network restarted twice, ingested and served', () => {
  let out: string;
  /** The model after each of the three runs, and the last consensus time of each. */
  const models: LedgerSnapshot[] = [];
  const ends: bigint[] = [];
  let duplicates: { kind: string; address: string; ids: string }[] = [];

  beforeAll(async () => {
    out = mkdtempSync(path.join(tmpdir(), 'simulator-restart-'));
    for (const extra of [[], ['--continue'], ['--continue']]) {
      const summary = await simulate({
        ...parseOptions(['--out', out, '--files', '4', '--tps', '60', '--seed', 'restart', ...extra]),
        // Contracts calling HTS need a file's first transaction and give this test no EVM addresses to check.
        weights: { ethereumTransaction: 60, htsCall: 0 },
      });
      ends.push(summary.lastConsensusNs);
      models.push(JSON.parse(readFileSync(path.join(out, LEDGER_FILE), 'utf8')) as LedgerSnapshot);
    }
  }, 300_000);

  afterAll(() => rmSync(out, { recursive: true, force: true }));

  const { worker } = registerWorkerSuite({
    seed: async (db) => {
      await ingestStreams(out, db.url);
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        const shared = await client.query<{ kind: string; address: string; ids: string }>(
          `select 'evm_address' as kind, encode(evm_address, 'hex') as address, string_agg(id::text, ',') as ids
             from entity where evm_address is not null group by evm_address having count(*) > 1
           union all
           select 'alias', encode(alias, 'hex'), string_agg(id::text, ',')
             from entity where alias is not null group by alias having count(*) > 1`,
        );
        duplicates = shared.rows;
      } finally {
        await client.end();
      }
    },
    timeout: 300_000,
  });

  const last = () => models.at(-1) as LedgerSnapshot;

  it('gives no two entities the same EVM address or alias', () => {
    expect(last().accounts.filter((a) => a.evmAddress).length).toBeGreaterThan(5);
    expect(duplicates).toEqual([]);
  });

  it('finds every account with an EVM address by that address, with the nonce of its Ethereum transactions', async () => {
    expect(last().accounts.some((a) => a.ethereumNonce !== '0')).toBe(true);
    // An EIP-7702 authorization moves its authority's nonce with no record saying so: the streams show the
    // `signer_nonce` of the account's last Ethereum transaction.
    for (const account of last().accounts.filter((a) => a.evmAddress)) {
      const response = await worker.get(`/api/v1/accounts/0x${account.evmAddress}`);
      expect(`${account.id} ${response.status}`).toBe(`${account.id} 200`);
      expect(response.body.account).toBe(account.id);
      expect(`${account.id} ${response.body.ethereum_nonce}`).toBe(`${account.id} ${account.reportedNonce}`);
    }
  });

  it("serves the model's balance of every account on /api/v1/balances", async () => {
    const served = new Map<string, string>();
    let next: string | null = '/api/v1/balances?limit=100&order=asc';
    while (next) {
      const response = await worker.get(next);
      expect(response.status, next).toBe(200);
      for (const entry of response.body.balances) served.set(entry.account, String(entry.balance));
      next = response.body.links?.next ?? null;
    }
    for (const account of last().accounts.filter((a) => !a.deleted)) {
      // A JSON number, as the reference writes it: the treasury's balance is read as the nearest double.
      const read = String(Number(account.balance));
      expect(`${account.id} ${served.get(account.id) ?? '0'}`).toBe(`${account.id} ${read}`);
    }
  });

  it('has entities created before each restart take part in transactions after it', async () => {
    for (const restart of [0, 1]) {
      const earlier = models[restart]?.accounts.filter((a) => BigInt(a.id.split('.')[2] ?? 0) >= 1001n) ?? [];
      const after = `${ends[restart] ?? 0n}`.replace(/(\d{9})$/, '.$1');
      let seen = 0;
      for (const account of earlier.slice(0, 8)) {
        const response = await worker.get(
          `/api/v1/transactions?account.id=${account.id}&timestamp=gt:${after}&limit=1`,
        );
        expect(response.status).toBe(200);
        if (response.body.transactions.length > 0) seen++;
      }
      expect(seen, `after restart ${restart + 1}`).toBeGreaterThan(0);
    }
  });
});
