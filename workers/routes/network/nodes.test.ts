import { describe, expect, it } from 'vitest';
import {
  clearTables,
  insertAddressBook,
  insertAddressBookEntry,
  insertNode,
  insertNodeStake,
  insertServiceEndpoint,
} from '../../../test/harness/factories-network.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';
import { answerValidator } from '../docs/openapi-ajv.ts';

const OLD_BOOK = 1_000_000_000_000n;
const BOOK_101 = 1_500_000_000_000n;
const BOOK = 2_000_000_000_000n;
const OLD_STAKE = 2_500_000_000_000n;
const STAKE = 3_000_000_000_000n;
const ED25519_KEY = Buffer.from(`1220${'ab'.repeat(32)}`, 'hex');
const DAY_NS = 86_400_000_000_000n;

const ts = (ns: bigint) => `${ns / 1_000_000_000n}.${(ns % 1_000_000_000n).toString().padStart(9, '0')}`;
const ids = (body: { nodes: { node_id: number }[] }) => body.nodes.map((node) => node.node_id);
const badRequest = (detail: string) => ({ _status: { messages: [{ message: 'Bad Request', detail }] } });
const invalid = (...names: string[]) => ({
  _status: { messages: names.map((name) => ({ message: `Invalid parameter: ${name}` })) },
});

const { db, worker } = registerWorkerSuite({
  seed: async (db) => {
    // an older 0.0.102 book, the latest one, and a 0.0.101 book
    await insertAddressBook(db.sql, { start_consensus_timestamp: OLD_BOOK, end_consensus_timestamp: BOOK - 1n });
    await insertAddressBookEntry(db.sql, { consensus_timestamp: OLD_BOOK, node_id: 0n, description: 'old' });
    await insertAddressBook(db.sql, {
      start_consensus_timestamp: BOOK_101,
      file_id: 101n,
      end_consensus_timestamp: BOOK,
    });
    for (const node of [0n, 1n]) await insertAddressBookEntry(db.sql, { consensus_timestamp: BOOK_101, node_id: node });
    await insertAddressBook(db.sql, { start_consensus_timestamp: BOOK });
    for (const node of [0n, 1n, 2n]) await insertAddressBookEntry(db.sql, { consensus_timestamp: BOOK, node_id: node });
    await insertAddressBookEntry(db.sql, {
      consensus_timestamp: BOOK,
      node_id: 3n,
      public_key: '0xabc',
      node_cert_hash: Buffer.alloc(0),
      memo: null,
      description: null,
    });
    await insertServiceEndpoint(db.sql, {
      consensus_timestamp: BOOK,
      node_id: 0n,
      ip_address_v4: '128.0.0.2',
      port: 50211,
    });
    await insertServiceEndpoint(db.sql, {
      consensus_timestamp: BOOK,
      node_id: 0n,
      ip_address_v4: '128.0.0.1',
      port: 50212,
    });
    await insertServiceEndpoint(db.sql, {
      consensus_timestamp: BOOK,
      node_id: 0n,
      ip_address_v4: '128.0.0.1',
      port: 50211,
    });
    await insertServiceEndpoint(db.sql, {
      consensus_timestamp: BOOK,
      node_id: 1n,
      domain_name: 'node1.example',
      port: 443,
    });
    await insertNode(db.sql, {
      node_id: 0n,
      account_id: 1003n,
      admin_key: ED25519_KEY,
      decline_reward: true,
      grpc_proxy_endpoint: JSON.stringify({ domain_name: 'proxy.example', port: 8080 }),
      associated_registered_nodes: [1n, 10n],
    });
    await insertNode(db.sql, { node_id: 1n });
    for (const node of [0n, 1n, 2n, 3n]) {
      await insertNodeStake(db.sql, { consensus_timestamp: OLD_STAKE, node_id: node, stake: 1 });
    }
    await insertNodeStake(db.sql, { consensus_timestamp: STAKE, node_id: 0n });
    await insertNodeStake(db.sql, { consensus_timestamp: STAKE, node_id: 1n, reward_rate: 0 });
    await insertNodeStake(db.sql, {
      consensus_timestamp: STAKE,
      node_id: 2n,
      max_stake: -1,
      min_stake: -1,
      stake_not_rewarded: -1,
    });
  },
});

describe('GET /api/v1/network/nodes', () => {
  it('lists the latest 0.0.102 address book with stakes and node records, cached for a minute', async () => {
    const res = await worker.get('/api/v1/network/nodes');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(res.headers.get('link')).toBeNull();
    expect(ids(res.body)).toEqual([0, 1, 2, 3]);
    expect(res.body.links).toEqual({ next: null });
    expect(res.body.nodes[0]).toEqual({
      admin_key: { _type: 'ED25519', key: 'ab'.repeat(32) },
      associated_registered_nodes: [1, 10],
      decline_reward: true,
      description: 'node 0',
      file_id: '0.0.102',
      grpc_proxy_endpoint: { domain_name: 'proxy.example', ip_address_v4: '', port: 8080 },
      max_stake: 5000,
      memo: '0.0.3',
      min_stake: 100,
      node_account_id: '0.0.1003',
      node_id: 0,
      node_cert_hash: '0x01d17375380',
      public_key: '0x308201a2300d06092a0',
      reward_rate_start: 100,
      service_endpoints: [
        { domain_name: '', ip_address_v4: '128.0.0.1', port: 50211 },
        { domain_name: '', ip_address_v4: '128.0.0.1', port: 50212 },
        { domain_name: '', ip_address_v4: '128.0.0.2', port: 50211 },
      ],
      stake: 1000,
      stake_not_rewarded: 300,
      stake_rewarded: 700,
      staking_period: { from: ts(STAKE), to: ts(STAKE + DAY_NS) },
      timestamp: { from: ts(BOOK), to: null },
    });
  });

  it('shows unknown stakes (-1), a missing node record and a missing stake as null', async () => {
    const res = await worker.get('/api/v1/network/nodes?node.id=gte:1');
    const [one, two, three] = res.body.nodes;
    expect(one).toMatchObject({
      admin_key: null,
      associated_registered_nodes: [],
      decline_reward: false,
      grpc_proxy_endpoint: null,
      node_account_id: '0.0.4',
      reward_rate_start: 0,
      service_endpoints: [{ domain_name: 'node1.example', ip_address_v4: '', port: 443 }],
    });
    expect(two).toMatchObject({
      decline_reward: null,
      max_stake: null,
      min_stake: null,
      stake_not_rewarded: null,
      stake: 1000,
      service_endpoints: [],
    });
    expect(three).toMatchObject({
      description: null,
      memo: null,
      node_cert_hash: '0x',
      public_key: '0xabc',
      max_stake: null,
      reward_rate_start: null,
      stake: null,
      staking_period: null,
    });
    // nulls included, the OpenAPI document describes the answer
    expect(answerValidator().check('/api/v1/network/nodes', 200, res.body)).toEqual([]);
  });

  it('pages with node.id=gt:<last> while a page is full', async () => {
    const first = await worker.get('/api/v1/network/nodes?limit=2');
    expect(ids(first.body)).toEqual([0, 1]);
    expect(first.body.links.next).toBe('/api/v1/network/nodes?limit=2&node.id=gt:1');
    expect(first.headers.get('link')).toBe('</api/v1/network/nodes?limit=2&node.id=gt:1>; rel="next"');
    const second = await worker.get(first.body.links.next);
    expect(ids(second.body)).toEqual([2, 3]);
    expect(second.body.links.next).toBe('/api/v1/network/nodes?limit=2&node.id=gt:3');
    const third = await worker.get(second.body.links.next);
    expect(third.body).toEqual({ nodes: [], links: { next: null } });
  });

  it('pages backwards with order=desc, keeping other bounds and unknown parameters', async () => {
    const res = await worker.get('/api/v1/network/nodes?order=DESC&limit=2&node.id=gte:1&extra=a%20b');
    expect(ids(res.body)).toEqual([3, 2]);
    expect(res.body.links.next).toBe('/api/v1/network/nodes?order=DESC&limit=2&node.id=gte:1&node.id=lt:2&extra=a%20b');
    const next = await worker.get(res.body.links.next);
    expect(ids(next.body)).toEqual([1]);
    expect(next.body.links.next).toBeNull();
  });

  it('gives no next link when the new bound leaves an empty range', async () => {
    const res = await worker.get('/api/v1/network/nodes?limit=2&node.id=lt:2');
    expect(ids(res.body)).toEqual([0, 1]);
    expect(res.body.links.next).toBeNull();
  });

  it('repeats node.id equality filters in the next link unchanged', async () => {
    const res = await worker.get('/api/v1/network/nodes?node.id=1&node.id=2&limit=1');
    expect(ids(res.body)).toEqual([1]);
    expect(res.body.links.next).toBe('/api/v1/network/nodes?node.id=1&node.id=2&limit=1');
  });

  it.each([
    ['node.id=2', [2]],
    ['node.id=eq:2', [2]],
    ['node.id=1&node.id=3', [1, 3]],
    ['node.id=gt:1', [2, 3]],
    ['node.id=gte:1&node.id=lte:2', [1, 2]],
    ['node.id=lt:2', [0, 1]],
    ['node.id=1&node.id=2&node.id=3&node.id=gte:2', [2, 3]],
    ['node.id=0&node.id=lt:0', 'range'],
    ['node.id=9&node.id=lt:3', []],
    ['node.id=ne:1', [0, 1, 2, 3]],
    ['node.id=99999', []],
    ['node.id=%2B2', [2]],
  ])('filters by %s', async (query, expected) => {
    const res = await worker.get(`/api/v1/network/nodes?${query}`);
    if (expected === 'range') {
      expect(res).toMatchObject({ status: 400, body: badRequest('Invalid range provided for node.id') });
    } else {
      expect(res.status).toBe(200);
      expect(ids(res.body)).toEqual(expected);
    }
  });

  it.each(['file.id=0.0.101', 'file.id=101', 'file.id=0.101', 'file.id=eq:0.0.101'])(
    'reads another address book with %s',
    async (query) => {
      const res = await worker.get(`/api/v1/network/nodes?${query}`);
      expect(ids(res.body)).toEqual([0, 1]);
      expect(res.body.nodes[0]).toMatchObject({
        file_id: '0.0.101',
        timestamp: { from: ts(BOOK_101), to: ts(BOOK) },
      });
    },
  );

  it('answers an empty list for a file without an address book', async () => {
    const res = await worker.get('/api/v1/network/nodes?file.id=0.0.99999');
    expect(res).toMatchObject({ status: 200, body: { nodes: [], links: { next: null } } });
  });

  it('caps the page size at 25 and ignores parameters it does not know', async () => {
    const res = await worker.get('/api/v1/network/nodes?limit=1000&Limit=1&foo=bar');
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([0, 1, 2, 3]);
  });

  it('takes the default for a parameter whose first value is blank', async () => {
    const res = await worker.get('/api/v1/network/nodes?limit=&limit=1&order=');
    expect(ids(res.body)).toEqual([0, 1, 2, 3]);
  });

  it('reads limits as Spring does: signs, hexadecimal, whitespace', async () => {
    for (const limit of ['%2B2', '0x2', '%202%20']) {
      const res = await worker.get(`/api/v1/network/nodes?limit=${limit}`);
      expect(ids(res.body)).toEqual([0, 1]);
    }
  });

  it.each([
    ['file.id=invalid', invalid('file.id')],
    ['file.id=0.0.-1', invalid('file.id')],
    ['file.id=1.2.3.4', invalid('file.id')],
    ['node.id=invalid', invalid('node.id')],
    ['node.id=1&node.id=-1', invalid('node.id')],
    ['node.id=eq:1:2', invalid('node.id')],
    ['node.id=xx:1', invalid('node.id')],
    ['node.id=9223372036854775808', invalid('node.id')],
    ['limit=0', invalid('limit')],
    ['limit=-1', invalid('limit')],
    ['limit=invalid', invalid('limit')],
    ['limit=2147483648', invalid('limit')],
    ['order=invalid', invalid('order')],
    ['limit=0&order=up&node.id=x&file.id=y', invalid('file.id', 'node.id', 'order', 'limit')],
    ['limit=1&limit=2', badRequest('Only a single instance is supported for limit')],
    ['file.id=101&file.id=102', badRequest('Only a single instance is supported for file.id')],
    ['file.id=gt:101', badRequest('Only equality operator is supported for file.id')],
    ['node.id=gt:5&node.id=lt:3', badRequest('Invalid range provided for node.id')],
  ])('answers 400 for %s', async (query, body) => {
    const res = await worker.get(`/api/v1/network/nodes?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(body);
    // the reference sets the route's headers before it reads any parameter
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
  });
});

describe('GET /api/v1/network/nodes on an empty database', () => {
  it('answers an empty list', async () => {
    await clearTables(db.sql, [
      'address_book',
      'address_book_entry',
      'address_book_service_endpoint',
      'node',
      'node_stake',
    ]);
    await worker.setState({}); // drops the edge cache
    const res = await worker.get('/api/v1/network/nodes');
    expect(res).toMatchObject({ status: 200, body: { nodes: [], links: { next: null } } });
  });
});
