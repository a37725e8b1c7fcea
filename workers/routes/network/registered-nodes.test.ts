import { describe, expect, it } from 'vitest';
import { clearTables, insertRegisteredNode } from '../../../test/harness/factories-network.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';

// registered_node.type codes
const BLOCK_NODE = 1;
const GENERAL_SERVICE = 2;
const MIRROR_NODE = 3;
const RPC_RELAY = 4;
const UNKNOWN = 0;

const ED25519_KEY = Buffer.from(`1220${'cd'.repeat(32)}`, 'hex');
const PROTOBUF_KEY = Buffer.from(`2a0608011202${'0a00'}`, 'hex');

const ids = (body: { registered_nodes: { registered_node_id: number }[] }) =>
  body.registered_nodes.map((node) => node.registered_node_id);
const badRequest = (detail: string) => ({ _status: { messages: [{ message: 'Bad Request', detail }] } });
const invalid = (...names: string[]) => ({
  _status: { messages: names.map((name) => ({ message: `Invalid parameter: ${name}` })) },
});

const { db, worker } = registerWorkerSuite({
  seed: async (db) => {
    // as the importer stores them: snake_case members, absent ones omitted
    await insertRegisteredNode(db.sql, {
      registered_node_id: 1n,
      admin_key: ED25519_KEY,
      description: 'alpha',
      type: [BLOCK_NODE, MIRROR_NODE, RPC_RELAY, GENERAL_SERVICE],
      timestamp_range: '[1234567890000000001,)',
      created_timestamp: 1234567890000000001n,
      service_endpoints: [
        {
          block_node: { endpoint_apis: ['STATUS', 'PUBLISH'] },
          ip_address: '127.0.0.1',
          port: 443,
          requires_tls: true,
        },
        { domain_name: 'mirror.alpha.example', mirror_node: {}, port: 5600, requires_tls: true },
        { domain_name: 'rpc.alpha.example', port: 7546, requires_tls: false, rpc_relay: {} },
        { domain_name: 'archive.alpha.example', general_service: { description: 'Archive API' }, port: 8443 },
      ],
    });
    await insertRegisteredNode(db.sql, { registered_node_id: 2n, type: [MIRROR_NODE], admin_key: PROTOBUF_KEY });
    await insertRegisteredNode(db.sql, { registered_node_id: 3n, type: [RPC_RELAY] });
    await insertRegisteredNode(db.sql, { registered_node_id: 4n, type: [BLOCK_NODE], deleted: true });
    await insertRegisteredNode(db.sql, {
      registered_node_id: 5n,
      type: [UNKNOWN],
      timestamp_range: '[10,20)',
      service_endpoints: [{ ip_address: '10.0.0.1', port: 1 }],
    });
  },
});

describe('GET /api/v1/network/registered-nodes', () => {
  it('lists registered nodes that are not deleted, by id, cached for a minute', async () => {
    const res = await worker.get('/api/v1/network/registered-nodes');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(ids(res.body)).toEqual([1, 2, 3, 5]);
    expect(res.body.links).toEqual({ next: null });
    expect(res.body.registered_nodes[0]).toEqual({
      admin_key: { _type: 'ED25519', key: 'cd'.repeat(32) },
      created_timestamp: '1234567890.000000001',
      description: 'alpha',
      registered_node_id: 1,
      service_endpoints: [
        {
          block_node: { endpoint_apis: ['STATUS', 'PUBLISH'] },
          domain_name: null,
          general_service: null,
          ip_address: '127.0.0.1',
          mirror_node: null,
          port: 443,
          requires_tls: true,
          rpc_relay: null,
          type: 'BLOCK_NODE',
        },
        {
          block_node: null,
          domain_name: 'mirror.alpha.example',
          general_service: null,
          ip_address: null,
          mirror_node: {},
          port: 5600,
          requires_tls: true,
          rpc_relay: null,
          type: 'MIRROR_NODE',
        },
        {
          block_node: null,
          domain_name: 'rpc.alpha.example',
          general_service: null,
          ip_address: null,
          mirror_node: null,
          port: 7546,
          requires_tls: false,
          rpc_relay: {},
          type: 'RPC_RELAY',
        },
        {
          block_node: null,
          domain_name: 'archive.alpha.example',
          general_service: { description: 'Archive API' },
          ip_address: null,
          mirror_node: null,
          port: 8443,
          requires_tls: false,
          rpc_relay: null,
          type: 'GENERAL_SERVICE',
        },
      ],
      timestamp: { from: '1234567890.000000001', to: null },
    });
  });

  it('shows other keys as protobuf, no endpoints as an empty list, and an endpoint of no kind as general service', async () => {
    const res = await worker.get('/api/v1/network/registered-nodes?registerednode.id=gte:2');
    const [two, , five] = res.body.registered_nodes;
    expect(two).toMatchObject({
      admin_key: { _type: 'ProtobufEncoded', key: PROTOBUF_KEY.toString('hex') },
      service_endpoints: [],
    });
    expect(five).toMatchObject({
      admin_key: null,
      service_endpoints: [{ ip_address: '10.0.0.1', port: 1, requires_tls: false, type: 'GENERAL_SERVICE' }],
      timestamp: { from: '0.000000010', to: '0.000000020' },
    });
  });

  it('pages with registerednode.id=gt:<last>', async () => {
    const first = await worker.get('/api/v1/network/registered-nodes?limit=1');
    expect(ids(first.body)).toEqual([1]);
    expect(first.body.links.next).toBe('/api/v1/network/registered-nodes?limit=1&registerednode.id=gt:1');
    expect(first.headers.get('link')).toBe(
      '</api/v1/network/registered-nodes?limit=1&registerednode.id=gt:1>; rel="next"',
    );
    const second = await worker.get('/api/v1/network/registered-nodes?limit=3&registerednode.id=gt:1');
    expect(ids(second.body)).toEqual([2, 3, 5]);
    expect(second.body.links.next).toBe('/api/v1/network/registered-nodes?limit=3&registerednode.id=gt:5');
  });

  it('pages backwards with order=desc', async () => {
    const res = await worker.get('/api/v1/network/registered-nodes?order=desc&limit=2');
    expect(ids(res.body)).toEqual([5, 3]);
    expect(res.body.links.next).toBe('/api/v1/network/registered-nodes?order=desc&limit=2&registerednode.id=lt:3');
  });

  it.each([
    ['BLOCK_NODE', [1]],
    ['bLoCk_NoDe', [1]],
    ['block-node', [1]],
    ['mirror_node', [1, 2]],
    ['RPC_RELAY', [1, 3]],
    ['general_service', [1]],
    ['UNKNOWN', [5]],
  ])('filters by type=%s', async (type, expected) => {
    const res = await worker.get(`/api/v1/network/registered-nodes?type=${type}`);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(expected);
  });

  it.each([
    ['registerednode.id=2', [2]],
    ['registerednode.id=eq:3', [3]],
    ['registerednode.id=4', []],
    ['registerednode.id=lt:3', [1, 2]],
    ['registerednode.id=lte:3', [1, 2, 3]],
    ['registerednode.id=gt:2', [3, 5]],
    ['registerednode.id=gte:2&registerednode.id=lt:5', [2, 3]],
    ['registerednode.id=gte:1&registerednode.id=gt:1', [2, 3, 5]],
    ['registerednode.id=ne:2', [1, 2, 3, 5]],
  ])('filters by %s', async (query, expected) => {
    const res = await worker.get(`/api/v1/network/registered-nodes?${query}`);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(expected);
  });

  it.each([
    ...['invalid', '-1', 'eq:-1', 'lt:-1', 'gt:abc', '.1', '9223372036854775808', 'a:1', 'eq:1:2'].map(
      (value): [string, unknown] => [`registerednode.id=${value}`, invalid('registerednode.id')],
    ),
    ['registerednode.id=1&registerednode.id=2&registerednode.id=3', invalid('registerednode.id')],
    ['limit=0', invalid('limit')],
    ['limit=101', invalid('limit')],
    ['limit=x&order=sideways&type=invalid', invalid('limit', 'order', 'type')],
    ['limit=101&registerednode.id=1&registerednode.id=2&registerednode.id=3', invalid('limit', 'registerednode.id')],
    ['type=BLOCK_NODE&type=MIRROR_NODE', badRequest('Only a single instance is supported for type')],
    [
      'registerednode.id=eq:1&registerednode.id=2',
      badRequest("The 'eq' operator cannot be combined with other operators"),
    ],
    [
      'registerednode.id=gte:1&registerednode.id=eq:2',
      badRequest("The 'eq' operator cannot be combined with other operators"),
    ],
    ['registerednode.id=gt:10&registerednode.id=lt:10', badRequest('Invalid range: lower bound exceeds upper bound')],
  ])('answers 400 for %s', async (query, body) => {
    const res = await worker.get(`/api/v1/network/registered-nodes?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(body);
  });

  it('accepts a limit of 100 and ignores unknown parameters', async () => {
    const res = await worker.get('/api/v1/network/registered-nodes?limit=100&node.id=1');
    expect(ids(res.body)).toEqual([1, 2, 3, 5]);
  });
});

describe('GET /api/v1/network/registered-nodes on an empty database', () => {
  it('answers an empty list', async () => {
    await clearTables(db.sql, ['registered_node']);
    await worker.setState({}); // drops the edge cache
    const res = await worker.get('/api/v1/network/registered-nodes');
    expect(res).toMatchObject({ status: 200, body: { registered_nodes: [], links: { next: null } } });
  });
});
