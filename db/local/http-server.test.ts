import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer, type HttpRequest } from './http-server.ts';

let server: ReturnType<typeof createHttpServer>;
let port: number;

beforeAll(async () => {
  // Echoes what it parsed; a body of `fail` makes the handler reject.
  server = createHttpServer(async (request: HttpRequest) => {
    const body = request.body.toString('utf8');
    if (body === 'fail') throw new Error('handler failed');
    return {
      status: 200,
      body: JSON.stringify({ method: request.method, target: request.target, body, x: request.headers.get('x-n') }),
    };
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Writes each part as its own packet, and returns all the server sent until it closed the connection. */
function exchange(parts: string[], to = port): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(to, '127.0.0.1');
    socket.setNoDelay(true);
    const received: Buffer[] = [];
    socket.on('data', (data: Buffer) => received.push(data));
    socket.on('end', () => resolve(Buffer.concat(received)));
    socket.on('error', reject);
    socket.once('connect', async () => {
      for (const part of parts) {
        socket.write(part);
        await new Promise((r) => setTimeout(r, 5));
      }
    });
  });
}

const post = (n: number, body: string, extra = '') =>
  `POST /sql HTTP/1.1\r\nhost: x\r\nx-n: ${n}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

/** The answers in a response stream: status, headers and JSON body of each. */
function answers(stream: Buffer) {
  const out: { status: number; headers: Record<string, string>; body: unknown }[] = [];
  let rest = stream;
  while (rest.length > 0) {
    const headEnd = rest.indexOf('\r\n\r\n');
    const [statusLine, ...lines] = rest.toString('latin1', 0, headEnd).split('\r\n');
    const headers = Object.fromEntries(lines.map((line) => line.split(': ') as [string, string]));
    const length = Number(headers['content-length']);
    out.push({
      status: Number(statusLine?.split(' ')[1]),
      headers,
      body: JSON.parse(rest.toString('utf8', headEnd + 4, headEnd + 4 + length)),
    });
    rest = rest.subarray(headEnd + 4 + length);
  }
  return out;
}

describe('the proxy HTTP server', () => {
  it('answers requests on one connection in order, until the client asks to close it', async () => {
    const stream = await exchange([post(1, '{"a":1}'), post(2, 'two'), post(3, '', 'connection: close\r\n')]);
    const all = answers(stream);
    expect(all.map((a) => a.body)).toEqual([
      { method: 'POST', target: '/sql', body: '{"a":1}', x: '1' },
      { method: 'POST', target: '/sql', body: 'two', x: '2' },
      { method: 'POST', target: '/sql', body: '', x: '3' },
    ]);
    expect(all.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(all[0]?.headers).toMatchObject({ 'content-type': 'application/json' });
    expect(Date.parse(all[0]?.headers.date ?? '')).toBeGreaterThan(0);
    expect(all[0]?.headers.connection).toBeUndefined();
    expect(all[2]?.headers.connection).toBe('close');
  });

  it('reads pipelined requests sent at once and requests split anywhere', async () => {
    const whole = post(1, 'é one') + post(2, 'two', 'connection: close\r\n');
    expect(answers(await exchange([whole])).map((a) => (a.body as { body: string }).body)).toEqual(['é one', 'two']);
    const cut = [whole.slice(0, 7), whole.slice(7, 40), whole.slice(40, 75), whole.slice(75)];
    expect(answers(await exchange(cut)).map((a) => (a.body as { body: string }).body)).toEqual(['é one', 'two']);
  });

  it('reads a body of megabytes that arrives in many packets', async () => {
    const body = 'x'.repeat(3 * 1024 * 1024);
    const all = answers(await exchange([post(1, body, 'connection: close\r\n')]));
    expect(all[0]?.body).toEqual(expect.objectContaining({ body }));
  });

  it('decodes a chunked body, with extensions and trailers', async () => {
    const head = 'POST /sql HTTP/1.1\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n';
    const stream = await exchange([head, '3;ext=1\r\nabc\r\n', '2\r\nde\r\n0\r\nx-trailer: 1\r\n\r\n']);
    expect(answers(stream)[0]?.body).toMatchObject({ body: 'abcde' });
  });

  it('closes an HTTP/1.0 connection after its answer', async () => {
    const stream = await exchange(['POST /sql HTTP/1.0\r\ncontent-length: 2\r\n\r\nhi']);
    expect(answers(stream)).toEqual([
      expect.objectContaining({ status: 200, body: expect.objectContaining({ body: 'hi' }) }),
    ]);
  });

  it('answers a request it cannot read with its 4xx or 501 and closes the connection', async () => {
    const cases: [string, number][] = [
      ['GARBAGE\r\n\r\n', 400],
      ['POST /sql HTTP/1.1\r\nno colon here\r\n\r\n', 400],
      ['POST /sql HTTP/1.1\r\ncontent-length: -1\r\n\r\n', 400],
      ['POST /sql HTTP/1.1\r\ncontent-length: 1\r\ncontent-length: 2\r\n\r\n', 400],
      ['POST /sql HTTP/1.1\r\ntransfer-encoding: gzip\r\n\r\n', 501],
      ['POST /sql HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n', 400],
      [`POST /sql HTTP/1.1\r\ncontent-length: ${64 * 1024 * 1024 + 1}\r\n\r\n`, 413],
      [`POST /sql HTTP/1.1\r\nx: ${'a'.repeat(17 * 1024)}`, 431],
    ];
    for (const [request, status] of cases) {
      const all = answers(await exchange([request]));
      expect(all, request.slice(0, 40)).toEqual([expect.objectContaining({ status })]);
      expect(all[0]?.headers.connection).toBe('close');
    }
  });

  it('answers the requests before a malformed one, then the error', async () => {
    const stream = await exchange([`${post(1, 'ok')}GARBAGE\r\n\r\n`]);
    expect(answers(stream).map((a) => a.status)).toEqual([200, 400]);
  });

  it('answers 500 and closes the connection when the handler fails', async () => {
    const all = answers(await exchange([post(1, 'fail'), post(2, 'never')]));
    expect(all).toEqual([expect.objectContaining({ status: 500, body: { message: 'Error: handler failed' } })]);
  });

  it('closes a connection left idle, but not one whose request is still being answered', async () => {
    const slow = createHttpServer(
      async (request) => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        return { status: 200, body: JSON.stringify({ body: request.body.toString('utf8') }) };
      },
      { idleTimeoutMs: 50 },
    );
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const slowPort = (slow.address() as AddressInfo).port;
      // Ends only when the server closes the connection: after the answer, once it has been idle.
      const all = answers(await exchange([post(1, 'took a while')], slowPort));
      expect(all).toEqual([expect.objectContaining({ status: 200, body: { body: 'took a while' } })]);
      expect(await exchange([], slowPort)).toHaveLength(0);
    } finally {
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  });
});
