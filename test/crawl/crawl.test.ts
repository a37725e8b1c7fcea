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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestStreams, simulateStages } from '../harness/simnet-stages.ts';
import { registerWorkerSuite } from '../harness/worker-suite.ts';
import { crawl, type FollowUp } from './crawler.ts';

const out = mkdtempSync(path.join(tmpdir(), 'crawl-'));

const { worker } = registerWorkerSuite({
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
