/**
 * A client that keeps its connection open (node:http's keep-alive Agent, one socket) through the Worker runtime:
 * after a response the Worker sent without reading the request's body (429 over the rate limit, 404 for a POST to no
 * route), the next request on the same connection is answered. And a trace request refused for what it is does not
 * spend the client's trace token.
 */
import http from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { registerWorkerSuite } from '../test/harness/worker-suite.ts';

const { worker } = registerWorkerSuite();

interface Answer {
  readonly status: number;
  readonly body: string;
  /** The request went on a connection an earlier request had used. */
  readonly reused: boolean;
}

let agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
afterEach(() => {
  agent.destroy();
  agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
});

function send(method: string, path: string, options: { body?: string; headers?: Record<string, string> } = {}) {
  const url = new URL(worker.baseUrl + path);
  return new Promise<Answer>((resolve, reject) => {
    const request = http.request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method, agent, headers: options.headers },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body, reused: request.reusedSocket }));
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

const client = (address: string) => ({ 'cf-connecting-ip': address, 'content-type': 'application/json' });
const call = (data: string) => JSON.stringify({ to: '0x00000000000000000000000000000000000003e8', data });
const CALL = '/api/v1/contracts/call';
const READ = '/api/v1/transactions?limit=1';

describe('a keep-alive connection after a response that left the request body unread', () => {
  it('answers the next request on it, after a 429 with a body and after one without', async () => {
    await worker.setState({
      config: {
        edge: {
          cache: { enabled: false },
          rateLimit: { contractsCall: { rate: 0.01, burst: 1 }, reads: { rate: 0.01, burst: 1 } },
        },
      },
    });
    const answers = [
      await send('POST', CALL, { body: call('0x12345678'), headers: client('203.0.113.60') }),
      await send('POST', CALL, { body: call(`0x${'ab'.repeat(4096)}`), headers: client('203.0.113.60') }),
      await send('GET', READ, { headers: client('203.0.113.61') }),
      await send('GET', READ, { headers: client('203.0.113.61') }),
      await send('GET', READ, { headers: client('203.0.113.62') }),
      await send('POST', CALL, { body: call(`0x${'cd'.repeat(500_000)}`), headers: client('203.0.113.60') }),
      await send('GET', READ, { headers: client('203.0.113.63') }),
    ];
    expect(answers.map((answer) => [answer.status, answer.reused])).toEqual([
      [400, false],
      [429, true],
      [200, true],
      [429, true],
      [200, true],
      [429, true],
      [200, true],
    ]);
    expect(JSON.parse(answers[1]?.body ?? '')).toEqual({
      _status: { messages: [{ message: 'Requests per second rate limit exceeded.' }] },
    });
    await worker.setState({});
  });

  it('answers the next request on it after a POST with a body to no route', async () => {
    await worker.setState({ config: { edge: { cache: { enabled: false }, rateLimit: { enabled: false } } } });
    const missing = await send('POST', '/api/v1/nothing-here', { body: 'x'.repeat(20_000), headers: client('') });
    const next = await send('GET', READ);
    expect([missing.status, next.status, next.reused]).toEqual([404, 200, true]);
    await worker.setState({});
  });
});

describe('a body that stops arriving', () => {
  it('is given up on after a few seconds: the client waiting for its answer gets it', async () => {
    await worker.setState({ config: { edge: { rateLimit: { enabled: false } } } });
    const { hostname, port } = new URL(worker.baseUrl);
    const started = Date.now();
    const head = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () =>
        socket.write('POST /api/v1/nothing-here HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n0123456789'),
      );
      socket.once('data', (chunk: Buffer) => {
        resolve(chunk.toString('utf8').split('\r\n')[0] ?? '');
        socket.destroy();
      });
      socket.on('error', reject);
    });
    expect(head).toBe('HTTP/1.1 404 Not Found');
    expect(Date.now() - started).toBeLessThan(10_000);
    await worker.setState({});
  });
});

describe('a trace request refused for what it is', () => {
  it('answers 406 without gzip and leaves the client its trace token', async () => {
    await worker.setState({
      config: {
        edge: { rateLimit: { opcodes: { rate: 0.01, burst: 1 } } },
        web3: { opcode: { tracer: { enabled: true } } },
      },
    });
    const path = '/api/v1/contracts/results/0.0.1001-1700000000-000000000/opcodes';
    const headers = { 'cf-connecting-ip': '203.0.113.70' };
    const statuses = [
      (await send('GET', path, { headers: { ...headers, 'accept-encoding': 'identity' } })).status,
      (await send('GET', path, { headers: { ...headers, 'accept-encoding': 'gzip' } })).status,
      (await send('GET', path, { headers: { ...headers, 'accept-encoding': 'gzip' } })).status,
    ];
    // 404: the transaction is not on the empty ledger, answered with the token; then the bucket is empty
    expect(statuses).toEqual([406, 404, 429]);
    await worker.setState({});
  });
});
