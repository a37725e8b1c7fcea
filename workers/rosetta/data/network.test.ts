import { afterEach, describe, expect, it } from 'vitest';
import { MESH_VERSION, postMesh } from '../../../test/harness/mesh-document.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';
import { ALL_ERRORS } from '../errors.ts';

const { worker } = registerWorkerSuite();

const DEMO = { blockchain: 'Hedera', network: 'demo' };
const post = (endpoint: string, body: unknown, headers?: Record<string, string>) =>
  postMesh(worker.baseUrl, endpoint, body, headers);

afterEach(() => worker.setState({}));

describe('the Mesh document the answers are held to', () => {
  it('is Mesh 1.5.x', () => {
    expect(MESH_VERSION).toMatch(/^1\.5\./);
  });
});

describe('/rosetta/network/list and /network/options', () => {
  it('lists the one network the settings name', async () => {
    const answer = await post('/network/list', {});
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ network_identifiers: [DEMO] });
    expect(answer.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(answer.text.endsWith('}\n')).toBe(true);
  });

  it('names the sub-network by shard and realm when the feature is on', async () => {
    await worker.setState({
      config: { rosetta: { network: 'TESTNET', feature: { subNetworkIdentifier: true } }, common: { realm: 3 } },
    });
    const network = {
      blockchain: 'Hedera',
      network: 'testnet',
      sub_network_identifier: { network: 'shard 0 realm 3' },
    };
    expect((await post('/network/list', {})).body).toEqual({ network_identifiers: [network] });
    expect((await post('/network/options', { network_identifier: network })).status).toBe(200);
  });

  it("lists the reference's versions, operation types, statuses and every error it can answer", async () => {
    const { body } = await post('/network/options', { network_identifier: DEMO });
    expect(body.version).toEqual({
      rosetta_version: '1.7.1',
      node_version: '0',
      middleware_version: expect.any(String),
    });
    expect(body.allow.operation_types).toContain('CRYPTOTRANSFER');
    expect(body.allow.operation_types).toContain('FEE');
    expect(body.allow.operation_statuses).toContainEqual({ status: 'SUCCESS', successful: true });
    expect(body.allow.errors).toEqual(ALL_ERRORS);
    expect(body.allow.errors[0]).toEqual({ code: 100, message: 'Account not found', retriable: true });
    expect(body.allow.historical_balance_lookup).toBe(true);
    expect(body.allow.mempool_coins).toBe(false);
  });
});

describe('requests the Mesh SDK refuses before any service runs', () => {
  it('answers an unknown network with a code-0 error quoting it', async () => {
    const answer = await post('/network/options', { network_identifier: { blockchain: 'Hedera', network: 'mainnet' } });
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({
      code: 0,
      message:
        'network identifier {"blockchain":"Hedera","network":"mainnet"} is not supported: requestNetwork is not supported',
      retriable: false,
    });
  });

  it.each([
    ['', 'EOF'],
    ['{"network_identifier":', 'unexpected EOF'],
    ['network', "invalid character 'e' in literal null (expecting 'u')"],
    ['null', 'NetworkRequest is nil'],
    [
      '{"network_identifier":"demo"}',
      'json: cannot unmarshal string into Go struct field NetworkRequest.network_identifier of type types.NetworkIdentifier',
    ],
  ])('answers the body %j with the decoder message %j', async (body, message) => {
    const answer = await post('/network/options', body);
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({ code: 0, message, retriable: false });
  });

  it("answers a path it has no route for with the router's 404 text, a GET of a route with 405", async () => {
    const unknown = await fetch(`${worker.baseUrl}/rosetta/network/unknown`, { method: 'POST', body: '{}' });
    expect([unknown.status, await unknown.text()]).toEqual([404, '404 page not found\n']);
    const get = await fetch(`${worker.baseUrl}/rosetta/network/list`);
    expect([get.status, await get.text()]).toEqual([405, '']);
  });

  it('answers a CORS preflight as the Mesh SDK does', async () => {
    const preflight = await fetch(`${worker.baseUrl}/rosetta/block`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST,OPTIONS');
  });
});

describe('the edge layer', () => {
  it('tags an answer, keys it by what the body means, and answers If-None-Match with 304', async () => {
    const first = await post('/network/options', { network_identifier: DEMO });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"/);
    const same = await post(
      '/network/options',
      '{ "metadata": null, "network_identifier": {"network":"demo","blockchain":"Hedera","x":1} }',
    );
    expect(same.headers.get('etag')).toBe(etag);
    const again = await post('/network/options', { network_identifier: DEMO }, { 'if-none-match': etag ?? '' });
    expect(again.status).toBe(304);
  });

  it('answers a client over its rate limit with a retriable Mesh error, 429 and Retry-After', async () => {
    await worker.setState({
      config: { edge: { cache: { enabled: false }, rateLimit: { reads: { rate: 1, burst: 1 } } } },
    });
    const client = { 'cf-connecting-ip': '203.0.113.9' };
    expect((await post('/network/list', {}, client)).status).toBe(200);
    const refused = await post('/network/list', {}, client);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body).toEqual({ code: 429, message: 'Requests per second rate limit exceeded.', retriable: true });
  });
});
