import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { insertCryptoTransfer, insertRow, insertTransaction, ns } from '../../test/harness/factories.ts';
import { insertRecordFile } from '../../test/harness/factories-blocks.ts';
import {
  insertContract,
  insertContractLog,
  insertContractResult,
  insertEthereumTransaction,
} from '../../test/harness/factories-contracts.ts';
import { insertEntity, insertToken, insertTokenAccount } from '../../test/harness/factories-tokens.ts';
import { sharedDir } from '../../test/harness/shared-dir.ts';
import { registerWorkerSuite } from '../../test/harness/worker-suite.ts';
import document from './docs/openapi.json' with { type: 'json' };
import { pathTemplate, responseSchema } from './docs/response-schema.ts';
import { checkSchema } from './docs/schema-check.ts';

/**
 * Bodies are compared with the reference's byte for byte (`npm run compare:bodies`), so key order is part of the
 * interface. These tests hold it without the perf dataset: each route answers on a few rows of its own, and the
 * key order of every object in the answer is compared with the reference's own body for that route
 * (test/data/perf/reference-bodies). Each answer is also checked against the OpenAPI document's schema for it.
 */

const CREATED = ns('1735776004.000000001');
const BLOCK_HASH = 'ab'.repeat(48);
const ETH_HASH = Buffer.alloc(32, 0x5e);

const { worker } = registerWorkerSuite({
  seed: async ({ sql }) => {
    await insertRecordFile(sql, {
      index: 7n,
      consensus_start: CREATED,
      consensus_end: CREATED + 1_000_000_000n,
      hash: BLOCK_HASH,
      gas_used: 21_000,
      logs_bloom: Buffer.alloc(256, 1),
    });
    await insertTransaction(sql, { consensus_timestamp: CREATED + 1n, payer_account_id: 1001n });
    await insertCryptoTransfer(sql, {
      consensus_timestamp: CREATED + 1n,
      entity_id: 1001n,
      amount: -7n,
      payer_account_id: 1001n,
    });
    await insertEntity(sql, 1001, CREATED);
    await insertToken(sql, 1013, CREATED);
    await insertTokenAccount(sql, { account_id: 1001, token_id: 1013, balance: 5 });
    await insertRow(sql, 'custom_fee', {
      entity_id: 1013,
      fixed_fees: JSON.stringify([{ amount: 3, collector_account_id: 1001, all_collectors_are_exempt: false }]),
      timestamp_range: `[${CREATED},)`,
    });
    await insertRow(sql, 'schedule', {
      consensus_timestamp: CREATED + 2n,
      creator_account_id: 1001,
      payer_account_id: 1001,
      schedule_id: 1020,
      transaction_body: Buffer.from([1, 2, 3]),
    });
    await insertEntity(sql, 1020, CREATED + 2n, { type: 'SCHEDULE', memo: 'a schedule' });
    await insertContract(sql, { id: 1030n, created_timestamp: CREATED });
    await insertContractResult(sql, {
      consensus_timestamp: CREATED + 3n,
      contract_id: 1030n,
      payer_account_id: 1001n,
      transaction_hash: ETH_HASH,
    });
    await insertEthereumTransaction(sql, {
      consensus_timestamp: CREATED + 3n,
      payer_account_id: 1001n,
      hash: ETH_HASH,
    });
    await insertContractLog(sql, { consensus_timestamp: CREATED + 3n, contract_id: 1030n, index: 0 });
  },
});

interface ReferenceBody {
  file: string;
  url: string;
}

const bodiesDir = path.join(sharedDir(), 'perf/reference-bodies');
const index = JSON.parse(readFileSync(path.join(bodiesDir, 'index.json'), 'utf8')) as ReferenceBody[];

/** The reference's body for the first benchmark URL that `pattern` matches. */
function referenceBody(pattern: RegExp): unknown {
  const entry = index.find((candidate) => pattern.test(candidate.url));
  if (!entry) throw new Error(`no reference body for ${pattern}`);
  return JSON.parse(readFileSync(path.join(bodiesDir, entry.file), 'utf8'));
}

/** The key order of the objects at each path of a body (`transactions[].transfers[]`); the first one seen wins. */
function keyOrders(value: unknown, at = '', into = new Map<string, string[]>()): Map<string, string[]> {
  if (Array.isArray(value)) {
    for (const item of value) keyOrders(item, `${at}[]`, into);
  } else if (typeof value === 'object' && value !== null) {
    if (!into.has(at)) into.set(at, Object.keys(value));
    for (const [key, child] of Object.entries(value)) keyOrders(child, `${at}.${key}`, into);
  }
  return into;
}

/**
 * For every path present in both bodies, the keys both have, in the order each body has them: keys one side
 * writes only for some rows (`assessed_custom_fees`, a `logs` list) do not hide an order difference of the rest.
 */
function commonKeyOrders(actual: unknown, expected: unknown) {
  const ours = keyOrders(actual);
  const theirs = keyOrders(expected);
  const compared: Record<string, { ours: string[]; reference: string[] }> = {};
  for (const [at, referenceKeys] of theirs) {
    const ourKeys = ours.get(at);
    if (!ourKeys) continue;
    compared[at] = {
      ours: ourKeys.filter((key) => referenceKeys.includes(key)),
      reference: referenceKeys.filter((key) => ourKeys.includes(key)),
    };
  }
  return compared;
}

describe('JSON key order', () => {
  const routes: [string, string, RegExp][] = [
    ['transactions', '/api/v1/transactions', /^\/api\/v1\/transactions$/],
    ['a transaction by id', '/api/v1/transactions/0.0.1001-1735776004-000000001', /^\/api\/v1\/transactions\/0\.0/],
    ['blocks', '/api/v1/blocks', /^\/api\/v1\/blocks$/],
    ['a block', '/api/v1/blocks/7', /^\/api\/v1\/blocks\/\d+$/],
    ['accounts', '/api/v1/accounts', /^\/api\/v1\/accounts$/],
    ['an account', '/api/v1/accounts/0.0.1001', /^\/api\/v1\/accounts\/0\.0\.1001$/],
    ["an account's tokens", '/api/v1/accounts/0.0.1001/tokens', /^\/api\/v1\/accounts\/[\d.]+\/tokens$/],
    ['tokens', '/api/v1/tokens', /^\/api\/v1\/tokens$/],
    ['a token', '/api/v1/tokens/0.0.1013', /^\/api\/v1\/tokens\/[\d.]+$/],
    ["a token's balances", '/api/v1/tokens/0.0.1013/balances', /^\/api\/v1\/tokens\/[\d.]+\/balances$/],
    ['schedules', '/api/v1/schedules', /^\/api\/v1\/schedules$/],
    ['contract results', '/api/v1/contracts/results', /^\/api\/v1\/contracts\/results$/],
    [
      'a contract result with its logs',
      `/api/v1/contracts/results/0x${ETH_HASH.toString('hex')}`,
      /^\/api\/v1\/contracts\/results\/0x/,
    ],
  ];

  it.each(routes)("%s: the reference's key order", async (_, url, reference) => {
    const res = await worker.get(url);
    expect(res.status).toBe(200);
    const compared = commonKeyOrders(res.body, referenceBody(reference));
    expect(Object.keys(compared).length).toBeGreaterThan(0);
    for (const [at, { ours, reference: theirs }] of Object.entries(compared)) expect(ours, at).toEqual(theirs);
  });

  it.each(routes)('%s: described by the OpenAPI document', async (_, url) => {
    const res = await worker.get(url);
    const template = pathTemplate(document, new URL(url, 'http://test').pathname);
    expect(template).toBeDefined();
    const described = responseSchema(document, 'get', template ?? '', res.status);
    expect(described?.schema).toBeDefined();
    expect(checkSchema(document, described?.schema ?? {}, res.body)).toEqual([]);
  });
});
