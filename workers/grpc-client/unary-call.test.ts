import net from 'node:net';
import { Duplex } from 'node:stream';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesMethod } from '../../test/harness/grpc-bytes-method.ts';
import { HUFFMAN_CODES, huffmanDecode } from './huffman.ts';
import { type SocketOpener, unaryCall } from './unary-call.ts';

/** Node sockets as the call's duplex, as `cloudflare:sockets` gives them in the Worker. */
const openNodeSocket: SocketOpener = (host, port) => {
  const socket = net.connect({ host, port });
  const { readable, writable } = Duplex.toWeb(socket);
  return {
    readable: readable as ReadableStream<Uint8Array>,
    writable: writable as WritableStream<Uint8Array>,
    opened: new Promise((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    }),
    close: async () => {
      socket.destroy();
    },
  };
};

/** A server of one method that answers as the request's first byte asks. */
const service: grpc.ServiceDefinition = { call: bytesMethod('/test.Echo/call') };

let server: grpc.Server;
let port = 0;
const received: Buffer[] = [];

beforeAll(async () => {
  server = new grpc.Server();
  server.addService(service, {
    call: (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
      received.push(call.request);
      const mode = call.request[0];
      if (mode === 1) {
        callback({ code: grpc.status.UNAVAILABLE, details: 'node busy: try 100% later' });
      } else if (mode === 2) {
        // never answers
      } else {
        const trailer = new grpc.Metadata();
        trailer.set('x-repeated', 'a value long enough to be worth indexing');
        const header = new grpc.Metadata();
        header.set('x-repeated', 'a value long enough to be worth indexing');
        call.sendMetadata(header);
        callback(null, Buffer.from([0x08, 0x00, 0x10, call.request.length & 0x7f]), trailer);
      }
    },
  });
  port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
});

afterAll(() => server.forceShutdown());

const call = (message: Uint8Array, overrides: { port?: number; deadlineMs?: number } = {}) =>
  unaryCall({
    open: openNodeSocket,
    host: '127.0.0.1',
    port: overrides.port ?? port,
    path: '/test.Echo/call',
    message,
    deadlineMs: overrides.deadlineMs ?? 5000,
  });

describe('a unary gRPC call over HTTP/2', () => {
  it('sends the message and reads the response through the server headers and trailers', async () => {
    const result = await call(Uint8Array.from([0, 7, 7]));
    expect(result).toEqual({ ok: true, message: Uint8Array.from([0x08, 0x00, 0x10, 3]) });
    expect(received.at(-1)).toEqual(Buffer.from([0, 7, 7]));
  });

  it('sends a message larger than a frame and than the initial window, waiting for window updates', async () => {
    const large = new Uint8Array(200_000).fill(9);
    large[0] = 0;
    const result = await call(large);
    expect(result.ok).toBe(true);
    expect(received.at(-1)?.length).toBe(200_000);
  });

  it("names a failed call by grpc-go's code and the server's decoded message", async () => {
    expect(await call(Uint8Array.from([1]))).toEqual({
      ok: false,
      code: 'Unavailable',
      desc: 'node busy: try 100% later',
    });
  });

  it('answers a refused connection and a call past its deadline as grpc-go does', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    expect(await call(Uint8Array.from([0]), { port: closed })).toEqual({
      ok: false,
      code: 'Unavailable',
      desc: `connection error: desc = "transport: Error while dialing: dial tcp 127.0.0.1:${closed}: connect: connection refused"`,
    });
    expect(await call(Uint8Array.from([2]), { deadlineMs: 300 })).toEqual({
      ok: false,
      code: 'DeadlineExceeded',
      desc: 'context deadline exceeded',
    });
  });
});

describe("HPACK's Huffman code", () => {
  it('has the codes of RFC 7541 and decodes its examples', () => {
    expect([HUFFMAN_CODES[0], HUFFMAN_CODES[1], HUFFMAN_CODES[10], HUFFMAN_CODES[48], HUFFMAN_CODES[256]]).toEqual([
      0x1ff8, 0x7fffd8, 0x3ffffffc, 0x0, 0x3fffffff,
    ]);
    const decode = (hex: string) => new TextDecoder().decode(huffmanDecode(Buffer.from(hex, 'hex')));
    expect(decode('f1e3c2e5f23a6ba0ab90f4ff')).toBe('www.example.com');
    expect(decode('a8eb10649cbf')).toBe('no-cache');
    expect(() => huffmanDecode(Uint8Array.from([0xf1, 0xe3, 0x00]))).toThrow('padding');
  });
});
