/**
 * Every route family with a trailing slash, an empty segment and an unknown sub-path, answered as the reference
 * answers them behind its gateway: the Node REST API (Express 5, not strict) takes one trailing slash as none and
 * answers an empty segment or a path it has no route for 404 `Not found`; rest-java and web3 (Spring 7) answer
 * anything but their exact routes 404 with the static resource handler's message. The ledger is a simulated
 * network's, so every route has something to answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestStreams, simulateStages } from '../test/harness/simnet-stages.ts';
import { registerWorkerSuite } from '../test/harness/worker-suite.ts';

const out = mkdtempSync(path.join(tmpdir(), 'reference-gateway-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const { worker } = registerWorkerSuite({
  async seed(db) {
    await simulateStages({
      out,
      seed: 'reference-gateway',
      tps: 60,
      files: [3],
      weights: { createSchedule: 40, mint: 60, submitMessage: 100 },
    });
    await ingestStreams(out, db.url);
  },
  timeout: 240_000,
});

// biome-ignore lint/suspicious/noExplicitAny: REST bodies of every shape
type Body = any;

interface Answer {
  readonly status: number;
  readonly body: Body;
}

async function request(method: 'GET' | 'POST', url: string): Promise<Answer> {
  if (method === 'GET') {
    const { status, body } = await worker.get(url);
    return { status, body };
  }
  const response = await fetch(worker.baseUrl + url, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ data: '0x', to: '0x0000000000000000000000000000000000000167' }),
  });
  return { status: response.status, body: await response.json() };
}

const nodeNotFound: Answer = { status: 404, body: { _status: { messages: [{ message: 'Not found' }] } } };
/** rest-java's answer to a path it has no route for (Spring's NoResourceFoundException). */
const javaNoRoute = (url: string, resource: string): Answer => ({
  status: 404,
  body: {
    _status: { messages: [{ message: 'Not Found', detail: `No static resource ${resource} for request '${url}'.` }] },
  },
});
/** web3's answer to the same: its messages carry `data` too. */
const web3NoRoute = (url: string, resource: string): Answer => ({
  status: 404,
  body: {
    _status: {
      messages: [{ message: 'Not Found', detail: `No static resource ${resource} for request '${url}'.`, data: '' }],
    },
  },
});

/** Ids of the simulated ledger, read from the API. */
const ids = {
  contract: '',
  contractTimestamp: '',
  result: '',
  schedule: '',
  token: '',
  nft: '',
  topic: '',
  messageTimestamp: '',
  transaction: '',
};

beforeAll(async () => {
  const first = async (url: string) => (await worker.get(url)).body;
  const contracts = await first('/api/v1/contracts?order=asc&limit=1');
  ids.contract = contracts.contracts[0].contract_id;
  const results = await first(`/api/v1/contracts/${ids.contract}/results?order=asc&limit=1`);
  ids.contractTimestamp = results.results[0].timestamp;
  ids.result = results.results[0].hash;
  ids.schedule = (await first('/api/v1/schedules?limit=1')).schedules[0].schedule_id;
  ids.token = (await first('/api/v1/tokens?type=FUNGIBLE_COMMON&limit=1')).tokens[0].token_id;
  for (const token of (await first('/api/v1/tokens?type=NON_FUNGIBLE_UNIQUE')).tokens) {
    const nfts = await first(`/api/v1/tokens/${token.token_id}/nfts?order=asc&limit=1`);
    if (nfts.nfts[0]?.serial_number === 1) ids.nft = token.token_id;
  }
  const submits = await first('/api/v1/transactions?transactiontype=CONSENSUSSUBMITMESSAGE&limit=1');
  ids.topic = submits.transactions[0].entity_id;
  ids.messageTimestamp = (await first(`/api/v1/topics/${ids.topic}/messages?limit=1`)).messages[0].consensus_timestamp;
  ids.transaction = (await first('/api/v1/transactions?limit=1')).transactions[0].transaction_id;
});

/** The Node REST API's routes: with a trailing slash the same answer, with `//` or an unknown sub-path 404. */
const NODE_FAMILIES: readonly (() => string)[] = [
  () => '/api/v1/accounts',
  () => '/api/v1/accounts/0.0.2',
  () => '/api/v1/accounts/0.0.2/nfts',
  () => '/api/v1/accounts/0.0.2/tokens',
  () => '/api/v1/accounts/0.0.2/rewards',
  () => '/api/v1/accounts/0.0.2/allowances/crypto',
  () => '/api/v1/accounts/0.0.2/allowances/tokens',
  () => '/api/v1/balances',
  () => '/api/v1/blocks',
  () => '/api/v1/blocks/1',
  () => '/api/v1/contracts',
  () => `/api/v1/contracts/${ids.contract}`,
  () => `/api/v1/contracts/${ids.contract}/results`,
  () => `/api/v1/contracts/${ids.contract}/results/${ids.contractTimestamp}`,
  () => `/api/v1/contracts/${ids.contract}/results/logs`,
  () => `/api/v1/contracts/${ids.contract}/state`,
  () => '/api/v1/contracts/results',
  () => `/api/v1/contracts/results/${ids.result}`,
  () => `/api/v1/contracts/results/${ids.result}/actions`,
  () => '/api/v1/contracts/results/logs',
  () => '/api/v1/schedules',
  () => `/api/v1/schedules/${ids.schedule}`,
  () => '/api/v1/tokens',
  () => `/api/v1/tokens/${ids.token}`,
  () => `/api/v1/tokens/${ids.token}/balances`,
  () => `/api/v1/tokens/${ids.nft}/nfts`,
  () => `/api/v1/tokens/${ids.nft}/nfts/1`,
  () => `/api/v1/tokens/${ids.nft}/nfts/1/transactions`,
  () => `/api/v1/topics/${ids.topic}/messages`,
  () => `/api/v1/topics/${ids.topic}/messages/1`,
  () => `/api/v1/topics/messages/${ids.messageTimestamp}`,
  () => '/api/v1/transactions',
  () => `/api/v1/transactions/${ids.transaction}`,
];

/** `/a/b/c` with its last separator doubled: `/a/b//c`. */
const emptySegment = (url: string) => `${url.slice(0, url.lastIndexOf('/'))}/${url.slice(url.lastIndexOf('/'))}`;
const withoutLinks = ({ status, body }: Answer) => ({ status, body: { ...body, links: undefined } });

describe('the Node REST API routes', () => {
  it('answer a path with one trailing slash as the path, and one with an empty segment 404 Not found', async () => {
    for (const family of NODE_FAMILIES) {
      const url = family();
      const plain = await request('GET', url);
      expect(plain.status, url).toBe(200);
      expect(withoutLinks(await request('GET', `${url}/`)), `${url}/`).toEqual(withoutLinks(plain));
      expect(await request('GET', emptySegment(url)), emptySegment(url)).toEqual(nodeNotFound);
      expect(await request('GET', `${url}//`), `${url}//`).toEqual(nodeNotFound);
    }
  });

  it('answer an unknown sub-path 404 Not found', async () => {
    // not where one more segment is another route's parameter (`/transactions/{id}`, `/tokens/{id}/nfts/{serial}`)
    const leaves = NODE_FAMILIES.map((family) => family()).filter(
      (url) => !/\/(accounts|blocks|contracts|results|schedules|tokens|transactions|nfts|messages)$/.test(url),
    );
    for (const url of [...leaves, '/api/v1/topics', '/api/v1/accounts/0.0.2/hooks']) {
      expect(await request('GET', `${url}/unknown`), `${url}/unknown`).toEqual(nodeNotFound);
    }
  });
});

/** Paths the gateway sends to rest-java or web3, each with the answer the reference gives it. */
const SPRING_CASES: readonly (() => readonly [method: 'GET' | 'POST', url: string, expected: Answer])[] = [
  ...['exchangerate', 'fees', 'nodes', 'registered-nodes', 'stake', 'supply'].flatMap((name) => [
    () =>
      ['GET', `/api/v1/network/${name}/`, javaNoRoute(`/api/v1/network/${name}/`, `api/v1/network/${name}`)] as const,
    () =>
      ['GET', `/api/v1/network//${name}`, javaNoRoute(`/api/v1/network//${name}`, `api/v1/network/${name}`)] as const,
    () =>
      [
        'GET',
        `/api/v1/network/${name}/unknown`,
        javaNoRoute(`/api/v1/network/${name}/unknown`, `api/v1/network/${name}/unknown`),
      ] as const,
  ]),
  () => ['GET', '/api/v1/network/', javaNoRoute('/api/v1/network/', 'api/v1/network')],
  () => ['GET', '/api/v1/network/unknown', javaNoRoute('/api/v1/network/unknown', 'api/v1/network/unknown')],
  ...['allowances/nfts', 'airdrops/outstanding', 'airdrops/pending'].flatMap((route) => {
    const url = `/api/v1/accounts/0.0.2/${route}`;
    const resource = url.slice(1);
    return [
      () => ['GET', `${url}/`, javaNoRoute(`${url}/`, resource)] as const,
      () => ['GET', `${url}/unknown`, javaNoRoute(`${url}/unknown`, `${resource}/unknown`)] as const,
      // the gateway's pattern wants `<id>/allowances/nfts` or `<id>/airdrops`: with `//` before them, Node's
      () => ['GET', `/api/v1/accounts/0.0.2//${route}`, nodeNotFound] as const,
    ];
  }),
  () => [
    'GET',
    '/api/v1/accounts/0.0.2/airdrops//outstanding',
    javaNoRoute('/api/v1/accounts/0.0.2/airdrops//outstanding', 'api/v1/accounts/0.0.2/airdrops/outstanding'),
  ],
  () => [
    'GET',
    '/api/v1/accounts/0.0.2/airdrops',
    javaNoRoute('/api/v1/accounts/0.0.2/airdrops', 'api/v1/accounts/0.0.2/airdrops'),
  ],
  () => ['GET', '/api/v1/accounts/0.0.2/allowances//nfts', nodeNotFound],
  // topics/{id} reaches rest-java only as `(\d+\.){0,2}\d+` at the end of the path: anything else is Node's
  () => ['GET', `/api/v1/topics/${ids.topic}/`, nodeNotFound],
  () => ['GET', `/api/v1/topics//${ids.topic}`, nodeNotFound],
  () => ['GET', `/api/v1/topics/${ids.topic}/unknown`, nodeNotFound],
  () => ['GET', '/api/v1/topics/messages/', nodeNotFound],
  () => ['GET', '/api/v1/topics/messages', nodeNotFound],
  () => ['POST', '/api/v1/contracts/call/', web3NoRoute('/api/v1/contracts/call/', 'api/v1/contracts/call')],
  () => [
    'POST',
    '/api/v1/contracts/call/unknown',
    web3NoRoute('/api/v1/contracts/call/unknown', 'api/v1/contracts/call/unknown'),
  ],
  () => ['POST', '/api/v1/contracts//call', nodeNotFound],
  () => {
    const url = `/api/v1/contracts/results/${ids.transaction}/opcodes`;
    return ['GET', `${url}/`, web3NoRoute(`${url}/`, url.slice(1))];
  },
  () => {
    const url = `/api/v1/contracts/results/${ids.transaction}/opcodes`;
    return ['GET', `${url}/unknown`, web3NoRoute(`${url}/unknown`, `${url.slice(1)}/unknown`)];
  },
  () => ['GET', `/api/v1/contracts/results/${ids.transaction}//opcodes`, nodeNotFound],
];

describe('the rest-java and web3 routes', () => {
  it('answer a trailing slash, an empty segment and an unknown sub-path as the gateway and Spring do', async () => {
    for (const testCase of SPRING_CASES) {
      const [method, url, expected] = testCase();
      expect(await request(method, url), `${method} ${url}`).toEqual(expected);
    }
  });

  it('still serve their exact routes', async () => {
    for (const url of [
      '/api/v1/network/exchangerate',
      '/api/v1/network/fees',
      '/api/v1/network/nodes',
      '/api/v1/accounts/0.0.2/allowances/nfts',
      '/api/v1/accounts/0.0.2/airdrops/outstanding',
      '/api/v1/accounts/0.0.2/airdrops/pending',
      `/api/v1/topics/${ids.topic}`,
    ]) {
      expect((await request('GET', url)).status, url).toBe(200);
    }
  });
});
