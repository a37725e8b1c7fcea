/**
 * End to end: about 2,000 simulated transactions ingested by the real ingest into a fresh database, then every
 * account balance, token balance, NFT owner, topic message count and contract storage slot read through the Worker
 * must equal the simulator's ledger model.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestStreams } from '../test/harness/simnet-stages.ts';
import { registerWorkerSuite } from '../test/harness/worker-suite.ts';
import type { LedgerSnapshot } from './ledger/export.ts';
import { parseOptions } from './main.ts';
import { simulate } from './run.ts';
import { LEDGER_FILE } from './write/layout.ts';

describe('simulated streams ingested and served by the API', () => {
  let out: string;
  let ledger: LedgerSnapshot;
  let ingested: { files: number; transactions: number };
  let simulated: number;

  // registered before registerWorkerSuite's hooks, so it runs first: the seed ingests the streams it writes
  beforeAll(async () => {
    out = mkdtempSync(path.join(tmpdir(), 'simulator-e2e-'));
    const summary = await simulate({
      ...parseOptions(['--out', out, '--files', '11', '--tps', '100', '--seed', 'e2e']),
    });
    simulated = summary.transactions;
    ledger = JSON.parse(readFileSync(path.join(out, LEDGER_FILE), 'utf8')) as LedgerSnapshot;
  }, 300_000);

  afterAll(() => {
    rmSync(out, { recursive: true, force: true });
  });

  const { worker } = registerWorkerSuite({
    seed: async (db) => {
      ingested = await ingestStreams(out, db.url);
    },
    timeout: 300_000,
  });

  /** Every item of a paged list, following `links.next`. */
  async function all(first: string, key: string): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let next: string | null = first;
    while (next) {
      const response = await worker.get(next);
      expect(response.status, next).toBe(200);
      items.push(...response.body[key]);
      next = response.body.links?.next ?? null;
    }
    return items;
  }

  it('ingests every file the simulator wrote', () => {
    expect(simulated).toBeGreaterThanOrEqual(2000);
    // the genesis file and eleven of traffic
    expect(ingested.files).toBe(12);
    expect(ingested.transactions).toBe(simulated);
  });

  it('serves every account balance the model holds', async () => {
    for (const account of ledger.accounts) {
      const response = await worker.get(`/api/v1/accounts/${account.id}`);
      expect(response.status, account.id).toBe(200);
      // The genesis balance file gives the mirror what accounts held before the first record file. Balances are
      // JSON numbers, as the reference writes them: the treasury's is read as the nearest double.
      const read = String(Number(account.balance));
      expect(`${account.id} ${response.body.balance.balance}`).toBe(`${account.id} ${read}`);
    }
  });

  it('serves every token balance the model holds', async () => {
    const byToken = new Map<string, Map<string, string>>();
    for (const { account, token, balance } of ledger.tokenBalances) {
      const map = byToken.get(token) ?? new Map<string, string>();
      map.set(account, balance);
      byToken.set(token, map);
    }
    for (const [token, expected] of byToken) {
      const balances = await all(`/api/v1/tokens/${token}/balances?limit=100`, 'balances');
      const served = new Map(balances.map((b) => [String(b.account), String(b.balance)]));
      for (const [account, balance] of expected) {
        // Balances are JSON numbers, as the reference writes them: above 2^53 a client reads the nearest double.
        const read = String(Number(balance));
        expect(`${token} ${account} ${served.get(account) ?? '0'}`).toBe(`${token} ${account} ${read}`);
      }
    }
  });

  it('serves the owner of every NFT', async () => {
    const tokens = new Set(ledger.nfts.map((n) => n.token));
    for (const token of tokens) {
      const nfts = await all(`/api/v1/tokens/${token}/nfts?limit=100`, 'nfts');
      const served = new Map(nfts.map((n) => [String(n.serial_number), n]));
      for (const nft of ledger.nfts.filter((n) => n.token === token)) {
        const row = served.get(nft.serial);
        if (nft.deleted) expect(row === undefined || row.deleted === true, `${token}/${nft.serial}`).toBe(true);
        else expect(`${token}/${nft.serial} ${row?.account_id}`).toBe(`${token}/${nft.serial} ${nft.owner}`);
      }
    }
  });

  it('serves the storage of every contract the model ran', async () => {
    const asNumber = (hex: unknown) => BigInt(`0x${String(hex).replace(/^0x/, '') || '0'}`);
    for (const contract of ledger.contracts) {
      const slots = await all(`/api/v1/contracts/${contract.id}/state?limit=100`, 'state');
      const served = new Map(slots.map((s) => [asNumber(s.slot), asNumber(s.value)]));
      const expected = new Map(
        Object.entries(contract.storage).map(([slot, value]) => [asNumber(slot), asNumber(value)]),
      );
      const sorted = (entries: [bigint, bigint][]) => entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      expect(sorted([...served].filter(([, value]) => value !== 0n))).toEqual(sorted([...expected]));
    }
  });

  it('serves as many messages per topic as the model counted', async () => {
    for (const topic of ledger.topics) {
      const response = await worker.get(`/api/v1/topics/${topic.id}/messages?order=desc&limit=1`);
      expect(response.status, topic.id).toBe(200);
      const last = response.body.messages[0]?.sequence_number ?? 0;
      expect(`${topic.id} ${last}`).toBe(`${topic.id} ${topic.sequenceNumber}`);
    }
  });
});
