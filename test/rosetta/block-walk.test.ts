/**
 * The Rosetta API over a simulated network of every transaction family (more than 200 record files), walked as an
 * exchange's indexer walks it with Mesh's `check:data`: every block from genesis, every balance that changed, each
 * answer valid against the Mesh document; then held to the REST API; then bad input. The network's genesis
 * balances come from its signed genesis balance file, which the ingest reads before the first record file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationType } from '../../workers/rosetta/domain/operation-types.ts';
import { MESH_NETWORK, postMesh } from '../harness/mesh-document.ts';
import { ingestStreams, simulateStages } from '../harness/simnet-stages.ts';
import { registerWorkerSuite } from '../harness/worker-suite.ts';
import { type MeshOperation, type WalkReport, walkBlocks } from './block-walk.ts';
import { restDisagreements } from './rest-agreement.ts';

const FILES = 210;
const out = mkdtempSync(path.join(tmpdir(), 'rosetta-walk-'));

const { db, worker } = registerWorkerSuite({
  async seed(db) {
    await simulateStages({
      out,
      seed: 'rosetta-walk',
      tps: 5,
      files: [FILES],
      // Every family of the mix at least now and then, the rare ones raised.
      weights: {
        chunkedMessage: 10,
        deleteAccount: 10,
        deleteNftAllowance: 10,
        burn: 10,
        callContract: 12,
        ethereumTransaction: 12,
        deployContract: 4,
        htsCall: 8,
        createSchedule: 12,
        signSchedule: 10,
        faucet: 8,
      },
    });
    await ingestStreams(out, db.url);
  },
  timeout: 600_000,
});

afterAll(() => rmSync(out, { recursive: true, force: true }));

beforeAll(() => worker.setState({ config: { edge: { rateLimit: { enabled: false } } } }));

/** The types of the operations that mark a failed transaction (its payer's 0 hbar, with its status). */
const failedTypes = (operations: readonly MeshOperation[]) =>
  operations.filter((o) => o.status !== 'SUCCESS' && o.amount?.value === '0').map((o) => o.type);
const CONCURRENCY = 12;
let walk: WalkReport | undefined;

/** The first row the treasury has in `account_balance`: the genesis snapshot. */
async function genesisSnapshot(): Promise<bigint> {
  const { rows } = await db.sql.query(
    'select min(consensus_timestamp)::text as at from account_balance where account_id = 2',
  );
  return BigInt(rows[0].at);
}

describe('a walk of every block of a simulated network through /rosetta', () => {
  it("passes what Mesh's check:data checks, block after block, balance after balance", async () => {
    const snapshot = await genesisSnapshot();
    walk = await walkBlocks({
      baseUrl: worker.baseUrl,
      network: MESH_NETWORK,
      concurrency: CONCURRENCY,
      async genesisBalance(address) {
        const num = /^0\.0\.(\d+)$/.exec(address)?.[1];
        if (num === undefined) throw new Error(`no genesis balance for ${address}`);
        const { rows } = await db.sql.query(
          'select balance::text from account_balance where account_id = $1 and consensus_timestamp = $2',
          [num, snapshot],
        );
        return BigInt(rows[0]?.balance ?? 0);
      },
    });
    const transactions = walk.blocks.reduce((n, block) => n + block.transactions.length, 0);
    const operations = walk.blocks.reduce(
      (n, block) => n + block.transactions.reduce((m, t) => m + t.operations.length, 0),
      0,
    );
    const timings = [...walk.timings].map(([endpoint, t]) => `${endpoint} ${(t.ms / t.count).toFixed(1)} ms`);
    console.log(
      `rosetta walk: ${walk.blocks.length} blocks, ${transactions} transactions, ${operations} operations, ` +
        `${walk.balanceChecks} balance checks, ${walk.requests} requests (${timings.join(', ')}), ` +
        `${walk.problems.length} problems`,
    );
    expect(walk.problems).toEqual([]);
    expect(walk.blocks.length).toBeGreaterThanOrEqual(200);
  }, 600_000);

  it('met every family of transactions the simulated network writes, fees and staking rewards', async () => {
    // Operations carry a transaction's own type only for the hbar a transfer's body moved, or when it failed: the
    // families are read from the ledger the walk went through.
    const { rows } = await db.sql.query('select distinct type from transaction');
    const types = new Set(rows.map((row: { type: number }) => operationType(row.type)));
    for (const type of [
      'CRYPTOTRANSFER',
      'CRYPTOCREATEACCOUNT',
      'CRYPTOUPDATEACCOUNT',
      'CRYPTODELETE',
      'CRYPTOAPPROVEALLOWANCE',
      'CRYPTODELETEALLOWANCE',
      'CONSENSUSCREATETOPIC',
      'CONSENSUSSUBMITMESSAGE',
      'TOKENCREATION',
      'TOKENASSOCIATE',
      'TOKENMINT',
      'TOKENBURN',
      'SCHEDULECREATE',
      'SCHEDULESIGN',
      'CONTRACTCALL',
      'CONTRACTCREATEINSTANCE',
      'ETHEREUMTRANSACTION',
      'FILEUPDATE',
    ]) {
      expect(types, type).toContain(type);
    }
    const operations = walk?.blocks.flatMap((b) => b.transactions.flatMap((t) => t.operations)) ?? [];
    expect(new Set(operations.map((o) => o.type))).toEqual(
      new Set(['CRYPTOTRANSFER', 'FEE', ...failedTypes(operations)]),
    );
    // A staking reward: 0.0.800's CRYPTOTRANSFER debit paying an account.
    const rewards = operations.filter(
      (o) => o.type === 'CRYPTOTRANSFER' && o.account?.address === '0.0.800' && o.amount?.value.startsWith('-'),
    );
    expect(rewards.length).toBeGreaterThan(0);
  });

  it('agrees with the REST API: the same transactions per block, the same transfers per transaction', async () => {
    if (!walk) throw new Error('the walk did not run');
    const { problems, transactionsCompared } = await restDisagreements(
      worker.baseUrl,
      walk.blocks,
      (await genesisSnapshot()) + 1n,
      CONCURRENCY,
    );
    console.log(`rosetta vs rest: ${walk.blocks.length} blocks, ${transactionsCompared} transactions compared`);
    expect(problems).toEqual([]);
  }, 300_000);

  it("answers bad input with the reference's errors", async () => {
    const post = (endpoint: string, body: unknown) => postMesh(worker.baseUrl, endpoint, body);
    const tip = walk?.blocks.at(-1)?.index ?? 0;
    const unknownNetwork = await post('/block', {
      network_identifier: { blockchain: 'Hedera', network: 'mainnet' },
      block_identifier: { index: 1 },
    });
    expect([unknownNetwork.status, unknownNetwork.body.code]).toEqual([500, 0]);
    expect(unknownNetwork.body.message).toContain('is not supported: requestNetwork is not supported');
    const pastTip = await post('/block', { network_identifier: MESH_NETWORK, block_identifier: { index: tip + 1000 } });
    expect(pastTip.body).toEqual({ code: 101, message: 'Block not found', retriable: true });
    const invalidAccount = await post('/account/balance', {
      network_identifier: MESH_NETWORK,
      account_identifier: { address: 'not an account' },
    });
    expect(invalidAccount.body).toEqual({ code: 102, message: 'Invalid Account provided', retriable: false });
    // An account nobody created has nothing: the reference answers a balance of 0, not an error.
    const unknownAccount = await post('/account/balance', {
      network_identifier: MESH_NETWORK,
      account_identifier: { address: '0.0.999999' },
    });
    expect(unknownAccount.body.balances[0].value).toBe('0');
    const malformed = await post('/block', '{"network_identifier":');
    expect(malformed.body).toEqual({ code: 0, message: 'unexpected EOF', retriable: false });
  });
});
