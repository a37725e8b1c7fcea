/**
 * The API over a simulated ledger, crawled as a client explores it: the simulated network writes a few thousand
 * transactions of every family it has (Ethereum transactions of types 0, 1, 2 and 4, with and without value, among
 * them), the ingest writes them into the test database, and the Worker in workerd serves them. Every answer the
 * crawl reaches must be described by the served OpenAPI document, none may be a 5xx, and every amount, balance and
 * timestamp must be there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEthereumTransaction, toBigInt } from '../../ingest/decode/ethereum-transaction.ts';
import { ingestStreams, simulateStages } from '../harness/simnet-stages.ts';
import { registerWorkerSuite } from '../harness/worker-suite.ts';
import { crawl, type FollowUp } from './crawler.ts';

const out = mkdtempSync(path.join(tmpdir(), 'crawl-'));

const { db, worker } = registerWorkerSuite({
  async seed(db) {
    await simulateStages({
      out,
      seed: 'crawl',
      tps: 150,
      files: [10],
      // Every family of the default mix, with contract work (calls, Ethereum transactions, deployments) raised so
      // that each Ethereum transaction type meets each kind of value.
      weights: { ethereumTransaction: 80, callContract: 40, deployContract: 4, createSchedule: 20 },
    });
    await ingestStreams(out, db.url);
  },
  timeout: 300_000,
});

afterAll(() => rmSync(out, { recursive: true, force: true }));

beforeAll(async () => {
  await worker.setState({
    config: {
      edge: { rateLimit: { enabled: false } },
      web3: {
        evm: { network: 'OTHER' },
        opcode: { tracer: { enabled: true } },
        throttle: { opcodeRequestsPerSecond: 100_000 },
      },
    },
  });
});

const listed = (url: string): FollowUp => ({ url: `/api/v1/${url}`, mustExist: true });

const SEEDS: FollowUp[] = [
  ...[
    'accounts?limit=100',
    'balances?limit=100',
    'blocks?limit=100',
    'blocks?limit=1&order=desc',
    'contracts?limit=100',
    'contracts/results?limit=100',
    'contracts/results/logs?limit=100',
    'network/exchangerate',
    'network/fees',
    'network/nodes',
    'network/supply',
    'schedules?limit=100',
    'tokens?limit=100',
    'transactions?limit=100',
  ].map(listed),
  // Tables the simulated network may leave empty: their 404 is described too.
  { url: '/api/v1/network/stake', mustExist: false },
  { url: '/api/v1/network/registered-nodes', mustExist: false },
];

describe('a crawl of the API over a simulated ledger', () => {
  it('meets no 5xx, no answer the OpenAPI document does not describe, and no missing amount or timestamp', async () => {
    const started = Date.now();
    const report = await crawl(SEEDS, {
      baseUrl: worker.baseUrl,
      parallel: 6,
      perTemplate: 400,
      templateLimits: { '/api/v1/contracts/results/{transactionIdOrHash}/opcodes': 40 },
    });
    console.log(
      `crawl: ${report.requests} requests, ${report.serverErrors.length} 5xx, ${report.violations.length} schema violations (${Math.round((Date.now() - started) / 1000)} s)`,
    );
    expect(report.serverErrors.slice(0, 10)).toEqual([]);
    expect(report.violations.slice(0, 20)).toEqual([]);
    expect(report.unexpected.slice(0, 10)).toEqual([]);
    // Every route a client reaches from the lists was reached.
    const reached = [...report.templates.keys()].filter((t) => t.startsWith('/api/v1/'));
    expect(reached.sort()).toEqual(
      expect.arrayContaining([
        '/api/v1/accounts/{idOrAliasOrEvmAddress}',
        '/api/v1/accounts/{idOrAliasOrEvmAddress}/allowances/crypto',
        '/api/v1/accounts/{idOrAliasOrEvmAddress}/airdrops/pending',
        '/api/v1/blocks/{hashOrNumber}',
        '/api/v1/contracts/{contractIdOrAddress}',
        '/api/v1/contracts/{contractIdOrAddress}/results/{timestamp}',
        '/api/v1/contracts/results/{transactionIdOrHash}',
        '/api/v1/contracts/results/{transactionIdOrHash}/actions',
        '/api/v1/contracts/results/{transactionIdOrHash}/opcodes',
        '/api/v1/schedules/{scheduleId}',
        '/api/v1/tokens/{tokenId}/nfts/{serialNumber}',
        '/api/v1/tokens/{tokenId}/nfts/{serialNumber}/transactions',
        '/api/v1/topics/{topicId}/messages/{sequenceNumber}',
        '/api/v1/topics/messages/{timestamp}',
        '/api/v1/transactions/{transactionId}',
      ]),
    );
  }, 300_000);
});

const WEIBARS_PER_TINYBAR = 10_000_000_000n;

/** The top-level `amount` of a contract result, read from the text so that weibar amounts keep every digit. */
async function amountOf(url: string): Promise<{ status: number; amount: string | undefined }> {
  const response = await fetch(worker.baseUrl + url);
  const text = await response.text();
  return { status: response.status, amount: /"amount":(-?\d+|null)/.exec(text)?.[1] };
}

describe('the amount of an Ethereum transaction', () => {
  it('is its value in tinybar, and in weibar with hbar=false, for every type with and without value', async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const { rows } = await client
      .query<{ data: Buffer; value: Buffer; hash: Buffer; type: number }>(
        'select data, value, hash, type from ethereum_transaction order by consensus_timestamp',
      )
      .finally(() => client.end());
    const kinds = new Set<string>();
    const mismatches: string[] = [];
    for (const row of rows) {
      const weibar = toBigInt(decodeEthereumTransaction(row.data).value);
      const kind = weibar === 0n ? 'none' : weibar < WEIBARS_PER_TINYBAR ? 'under a tinybar' : 'tinybars';
      kinds.add(`type ${row.type}: ${kind}`);
      // The importer's bytes: Java's BigInteger.toByteArray() of the value, so zero is 0x00 and a high bit gets 0x00.
      const digits = weibar.toString(16).padStart(2, '0');
      const even = digits.length % 2 ? `0${digits}` : digits;
      const stored = Number.parseInt(even.slice(0, 2), 16) & 0x80 ? `00${even}` : even;
      const hash = `0x${row.hash.toString('hex')}`;
      const tinybar = await amountOf(`/api/v1/contracts/results/${hash}`);
      const wei = await amountOf(`/api/v1/contracts/results/${hash}?hbar=false`);
      const actual = { stored: row.value.toString('hex'), tinybar, wei };
      const expected = {
        stored,
        tinybar: { status: 200, amount: String(weibar / WEIBARS_PER_TINYBAR) },
        wei: { status: 200, amount: String(weibar) },
      };
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        mismatches.push(`${hash}: ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
      }
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
    for (const type of [0, 1, 2, 4]) {
      expect(kinds).toContain(`type ${type}: none`);
      expect([`type ${type}: under a tinybar`, `type ${type}: tinybars`].some((k) => kinds.has(k))).toBe(true);
    }
  }, 120_000);
});

describe('the rows the ingest wrote for the simulated ledger', () => {
  it("hold each entity type's balance as the importer does: 0 or more for accounts and contracts, else NULL", async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const { rows } = await client
      .query<{ type: string; total: number; with_balance: number }>(
        `select type::text, count(*)::int as total, count(balance)::int as with_balance from entity group by type`,
      )
      .finally(() => client.end());
    const byType = Object.fromEntries(rows.map((r) => [r.type, [r.total, r.with_balance]]));
    for (const type of ['ACCOUNT', 'CONTRACT']) {
      expect(byType[type]?.[0]).toBeGreaterThan(0);
      expect([type, byType[type]?.[1]]).toEqual([type, byType[type]?.[0]]);
    }
    for (const type of ['TOKEN', 'TOPIC', 'SCHEDULE']) {
      expect(byType[type]?.[0]).toBeGreaterThan(0);
      expect([type, byType[type]?.[1]]).toEqual([type, 0]);
    }
  });
});

describe('the logs of the simulated ledger', () => {
  it('are found by each of their topics in a timestamp range, as eth_getLogs asks for them', async () => {
    const listed = await worker.get('/api/v1/contracts/results/logs?limit=100&order=asc');
    type Log = { timestamp: string; index: number; topics: string[] };
    const logs = (listed.body.logs as Log[]).filter((log) => log.topics.length > 1).slice(0, 30);
    expect(logs.length).toBeGreaterThan(0);
    const missed: string[] = [];
    for (const log of logs) {
      for (const [position, topic] of log.topics.entries()) {
        // An all-zero topic is stored as one zero byte while the filter drops every zero: the reference finds no
        // log by it either.
        if (/^0x0*$/.test(topic)) continue;
        const url = `/api/v1/contracts/results/logs?topic${position}=${topic}&timestamp=gte:${log.timestamp}&timestamp=lte:${log.timestamp}`;
        const found = await worker.get(url);
        if (!(found.body.logs as Log[] | undefined)?.some((l) => l.index === log.index)) missed.push(url);
      }
    }
    expect(missed).toEqual([]);
  });
});
