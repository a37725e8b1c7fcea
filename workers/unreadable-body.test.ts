import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { registerWorkerSuite } from '../test/harness/worker-suite.ts';

/** Request bodies the runtime cannot read to their end answer 400 with the reference's text, never a 500. */

const { worker } = registerWorkerSuite();

/**
 * Sends `head` and `body` as they are on one connection, closes the sending side (a client that stopped sending),
 * and reads the answer: its status and its JSON body.
 */
function rawRequest(head: string, body: string): Promise<{ status: number; body: unknown }> {
  const { hostname, port } = new URL(worker.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(`${head}\r\n\r\n${body}`));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
      const payload = text.slice(text.indexOf('\r\n\r\n') + 4);
      const json = payload.slice(payload.indexOf('{'), payload.lastIndexOf('}') + 1);
      resolve({ status, body: json ? JSON.parse(json) : undefined });
    });
  });
}

const headers = (path: string, contentType: string, framing: string) =>
  [`POST ${path} HTTP/1.1`, 'Host: localhost', `Content-Type: ${contentType}`, framing, 'Connection: close'].join(
    '\r\n',
  );

const UNREADABLE = [
  ['a bad chunk size', 'Transfer-Encoding: chunked', 'zz\r\n{"to":"0x00"}\r\n0\r\n\r\n'],
  ['a truncated chunked body', 'Transfer-Encoding: chunked', '40\r\n{"to":"0x00'],
  ['a Content-Length longer than the body', 'Content-Length: 100', '{"to":"0x00'],
] as const;

describe('an unreadable request body', () => {
  it.each(UNREADABLE)('POST /api/v1/contracts/call with %s answers 400', async (_, framing, body) => {
    const answer = await rawRequest(headers('/api/v1/contracts/call', 'application/json', framing), body);
    expect(answer).toEqual({
      status: 400,
      body: {
        _status: { messages: [{ message: 'Bad Request', detail: 'I/O error while reading input message', data: '' }] },
      },
    });
  });

  it.each(UNREADABLE)('POST /api/v1/network/fees with %s answers 400', async (_, framing, body) => {
    const answer = await rawRequest(headers('/api/v1/network/fees', 'application/protobuf', framing), body);
    expect(answer).toEqual({
      status: 400,
      body: { _status: { messages: [{ message: 'Bad Request', detail: 'Failed to read request' }] } },
    });
  });
});
