/**
 * Every contract transaction of a simulated network gets its receipt through the REST reads a JSON-RPC relay makes
 * for `eth_getTransactionReceipt` (hiero-json-rpc-relay `TransactionService.getTransactionReceipt` and
 * `CommonService.getCurrentGasPriceForBlock`): the contract result by hash, its block by hash, the gas price of
 * `EthereumTransaction` from `/network/fees?timestamp=` at the whole second the block starts in, the sender and
 * receiver resolved as a contract, account or token, and the block's contract results for the cumulative gas.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ingestStreams, simulateStages } from '../../test/harness/simnet-stages.ts';
import { registerWorkerSuite } from '../../test/harness/worker-suite.ts';
import type { LedgerSnapshot } from '../ledger/export.ts';
import { LEDGER_FILE } from '../write/layout.ts';

/** The relay's factor from tinybars to weibars. */
const TINYBAR_TO_WEIBAR = 10_000_000_000n;

const out = mkdtempSync(path.join(tmpdir(), 'relay-receipts-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const { worker } = registerWorkerSuite({
  async seed(db) {
    await simulateStages({
      out,
      seed: 'relay-receipts',
      tps: 60,
      files: [3],
      weights: { callContract: 80, ethereumTransaction: 80, htsCall: 40, deployContract: 6 },
    });
    await ingestStreams(out, db.url);
  },
  timeout: 240_000,
});

// biome-ignore lint/suspicious/noExplicitAny: REST bodies as a relay reads them
type Body = any;

async function read(url: string): Promise<Body> {
  const response = await worker.get(url);
  if (response.status !== 200)
    throw new Error(`GET ${url} answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body;
}

/** MirrorNodeClient.resolveEntityType: a contract first, then an account or a token (a 404 means "not this kind"). */
async function resolve(address: string): Promise<string> {
  for (const url of [`/api/v1/contracts/${address}`, `/api/v1/accounts/${address}?transactions=false`]) {
    const response = await worker.get(url);
    if (response.status === 200) return response.body.evm_address ?? address;
    expect(response.status, url).toBe(404);
  }
  const num = BigInt(`0x${address.slice(-16)}`);
  await read(`/api/v1/tokens/0.0.${num}`);
  return address;
}

/** The relay's receipt of the transaction with `hash`, from the reads it makes. */
async function relayReceipt(hash: string) {
  const result = await read(`/api/v1/contracts/results/${hash}?hbar=false`);
  const block = await read(`/api/v1/blocks/${result.block_hash}`);
  const second = String(block.timestamp.from).split('.')[0];
  const fees = await read(`/api/v1/network/fees?timestamp=${second}`);
  const ethereum = fees.fees.find((fee: Body) => fee.transaction_type === 'EthereumTransaction');
  if (!ethereum?.gas) throw new Error(`no EthereumTransaction gas price at ${second}: ${JSON.stringify(fees)}`);
  const [from, to] = await Promise.all([resolve(result.from), result.to ? resolve(result.to) : null]);
  let cumulativeGasUsed = BigInt(result.gas_used);
  if (result.transaction_index > 0) {
    const inBlock = await read(`/api/v1/contracts/results?block.number=${result.block_number}&hbar=false&limit=100`);
    cumulativeGasUsed = inBlock.results
      .filter((other: Body) => other.transaction_index <= result.transaction_index)
      .reduce((sum: bigint, other: Body) => sum + BigInt(other.gas_used), 0n);
  }
  return {
    blockHash: String(result.block_hash).slice(0, 66),
    blockNumber: result.block_number as number,
    from,
    to,
    cumulativeGasUsed,
    effectiveGasPrice: BigInt(ethereum.gas) * TINYBAR_TO_WEIBAR,
  };
}

describe('eth_getTransactionReceipt through a relay on a simulated network', () => {
  it('has a receipt for every contract transaction, those of the first block of traffic included', async () => {
    const model = JSON.parse(readFileSync(path.join(out, LEDGER_FILE), 'utf8')) as LedgerSnapshot;
    const hashes: string[] = [];
    for (let url: string | null = '/api/v1/contracts/results?order=asc&limit=100'; url; ) {
      const page = await read(url);
      hashes.push(...page.results.map((result: Body) => result.hash));
      url = page.links.next;
    }
    expect(hashes.length).toBe(model.contractResults.length);
    expect(hashes.length).toBeGreaterThan(20);

    const receipts = [];
    for (const hash of hashes) receipts.push(await relayReceipt(hash));
    const [genesis, firstOfTraffic] = (await read('/api/v1/blocks?order=asc&limit=2')).blocks;
    expect(receipts[0]?.blockNumber).toBe(firstOfTraffic.number);
    expect(genesis.number).toBe(0);
    for (const receipt of receipts) {
      expect(receipt.effectiveGasPrice).toBeGreaterThan(0n);
      expect(receipt.cumulativeGasUsed).toBeGreaterThan(0n);
      expect(receipt.from).toMatch(/^0x[0-9a-f]{40}$/);
    }
  });

  it('knows the fee schedule and the exchange rates from the genesis block on', async () => {
    const genesis = await read('/api/v1/blocks/0');
    const created = await read(`/api/v1/transactions?timestamp=lte:${genesis.timestamp.to}&order=asc`);
    expect(created.transactions.map((t: Body) => [t.name, t.entity_id, t.transaction_id, t.charged_tx_fee])).toEqual([
      ['FILECREATE', '0.0.111', `0.0.50-${genesis.timestamp.from.replace('.', '-')}`, 0],
      ['FILECREATE', '0.0.112', `0.0.50-${genesis.timestamp.to.replace('.', '-')}`, 0],
    ]);
    const fees = await read(`/api/v1/network/fees?timestamp=${genesis.timestamp.to}`);
    expect(fees.fees.map((fee: Body) => fee.transaction_type)).toEqual([
      'ContractCall',
      'ContractCreate',
      'EthereumTransaction',
    ]);
    expect(fees.timestamp).toBe(genesis.timestamp.from);
    // $0.000_000_0852 a gas at the genesis rate of 12 cents an hbar
    expect(fees.fees.map((fee: Body) => fee.gas)).toEqual([71, 71, 71]);
  });
});
