import { createServer, type Server, type Socket } from 'node:net';
import { httpDate } from '../../common/http-date.ts';

/** One request as the handler sees it: header names in lowercase, the body whole. */
export interface HttpRequest {
  method: string;
  target: string;
  headers: Map<string, string>;
  body: Buffer;
}

/** A JSON answer. */
export interface HttpAnswer {
  status: number;
  body: string;
}

export type HttpHandler = (request: HttpRequest) => Promise<HttpAnswer>;

const MAX_HEAD_BYTES = 16 * 1024;
const MAX_BODY_BYTES = 64 * 1024 * 1024;
const IDLE_TIMEOUT_MS = 60_000;
const HEAD_END = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');

const REASONS: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  413: 'Content Too Large',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
};

/** A request the connection cannot go on from: answered with `status`, then the connection is closed. */
class Malformed extends Error {
  readonly status: number;
  constructor(status: number) {
    super(REASONS[status]);
    this.status = status;
  }
}

function responseText(answer: HttpAnswer, close: boolean): string {
  return (
    `HTTP/1.1 ${answer.status} ${REASONS[answer.status] ?? 'Unknown'}\r\n` +
    `date: ${httpDate(Date.now())}\r\ncontent-type: application/json\r\n` +
    `content-length: ${Buffer.byteLength(answer.body)}\r\n${close ? 'connection: close\r\n' : ''}\r\n${answer.body}`
  );
}

interface Head {
  method: string;
  target: string;
  http10: boolean;
  headers: Map<string, string>;
}

function parseHead(text: string): Head {
  const lines = text.split('\r\n');
  const requestLine = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) HTTP\/1\.([01])$/.exec(lines[0] ?? '');
  if (!requestLine) throw new Malformed(400);
  const headers = new Map<string, string>();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    const colon = line.indexOf(':');
    if (colon <= 0 || /[\s]/.test(line.slice(0, colon))) throw new Malformed(400);
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    const earlier = headers.get(name);
    if (earlier !== undefined && name === 'content-length' && earlier !== value) throw new Malformed(400);
    headers.set(name, earlier === undefined || name === 'content-length' ? value : `${earlier}, ${value}`);
  }
  return {
    method: requestLine[1] as string,
    target: requestLine[2] as string,
    http10: requestLine[3] === '0',
    headers,
  };
}

/** Bytes a request needs before it can be read whole: at least this many in all (more, once they are there). */
interface Incomplete {
  need: number;
}

const moreThan = (buffer: Buffer): Incomplete => ({ need: buffer.length + 1 });

/** Where a chunked body ends in `buffer` (from `start`), and the body. */
function chunkedBody(buffer: Buffer, start: number): { end: number; body: Buffer } | Incomplete {
  const chunks: Buffer[] = [];
  let size = 0;
  let at = start;
  for (;;) {
    const lineEnd = buffer.indexOf(CRLF, at);
    if (lineEnd < 0) return moreThan(buffer);
    const sizeText = buffer.toString('latin1', at, lineEnd).split(';')[0]?.trim() ?? '';
    if (!/^[0-9a-fA-F]{1,8}$/.test(sizeText)) throw new Malformed(400);
    const chunkSize = Number.parseInt(sizeText, 16);
    at = lineEnd + 2;
    if (chunkSize === 0) {
      // Trailer fields, if any, up to an empty line: read past, not kept.
      for (;;) {
        const trailerEnd = buffer.indexOf(CRLF, at);
        if (trailerEnd < 0) return moreThan(buffer);
        const empty = trailerEnd === at;
        at = trailerEnd + 2;
        if (empty) return { end: at, body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks) };
      }
    }
    size += chunkSize;
    if (size > MAX_BODY_BYTES) throw new Malformed(413);
    if (buffer.length < at + chunkSize + 2) return { need: at + chunkSize + 2 };
    chunks.push(buffer.subarray(at, at + chunkSize));
    if (buffer[at + chunkSize] !== 0x0d || buffer[at + chunkSize + 1] !== 0x0a) throw new Malformed(400);
    at += chunkSize + 2;
  }
}

/** The first whole request in `buffer`, and where it ends. */
function nextRequest(buffer: Buffer): { request: HttpRequest; close: boolean; end: number } | Incomplete {
  const headEnd = buffer.indexOf(HEAD_END);
  if (headEnd < 0) {
    if (buffer.length > MAX_HEAD_BYTES) throw new Malformed(431);
    return moreThan(buffer);
  }
  if (headEnd > MAX_HEAD_BYTES) throw new Malformed(431);
  const head = parseHead(buffer.toString('latin1', 0, headEnd));
  const connection = head.headers.get('connection')?.toLowerCase() ?? '';
  // HTTP/1.0 connections are closed after their answer; HTTP/1.1 ones stay open unless the client says close.
  const close = head.http10 || connection.split(',').some((token) => token.trim() === 'close');
  const bodyStart = headEnd + HEAD_END.length;
  const transferEncoding = head.headers.get('transfer-encoding');
  let body: Buffer;
  let end: number;
  if (transferEncoding !== undefined) {
    if (transferEncoding.toLowerCase() !== 'chunked') throw new Malformed(501);
    const chunked = chunkedBody(buffer, bodyStart);
    if ('need' in chunked) return chunked;
    ({ body, end } = chunked);
  } else {
    const lengthText = head.headers.get('content-length') ?? '0';
    if (!/^\d+$/.test(lengthText)) throw new Malformed(400);
    const length = Number(lengthText);
    if (length > MAX_BODY_BYTES) throw new Malformed(413);
    if (buffer.length < bodyStart + length) return { need: bodyStart + length };
    body = buffer.subarray(bodyStart, bodyStart + length);
    end = bodyStart + length;
  }
  return { request: { method: head.method, target: head.target, headers: head.headers, body }, close, end };
}

/**
 * A small HTTP/1.1 server for one kind of exchange: a request with a whole body in, a JSON answer out, on
 * keep-alive connections, answers in request order. It spends less than half of what Node's `http` module spends
 * on a request (the proxy's statements are a few hundred bytes each way, and the server's per-request objects
 * and events were a quarter of the proxy's CPU; docs/adr/0013). Bodies with Content-Length or chunked encoding;
 * a request it cannot read is answered with its 4xx or 501 and the connection closed.
 */
export function createHttpServer(
  handler: HttpHandler,
  options: { idleTimeoutMs?: number } = {},
): Server & { closeAllConnections(): void } {
  const sockets = new Set<Socket>();
  const idleTimeoutMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    // A connection with nothing in flight is closed after the idle time; one waiting for its answer is not.
    let inFlight = 0;
    socket.on('timeout', () => socket.destroy());
    socket.setTimeout(idleTimeoutMs);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    // Bytes not yet read as a request, kept as they came until the next request can be whole: a large body is
    // copied once, not once per packet.
    let received: Buffer[] = [];
    let receivedBytes = 0;
    let need = 1;
    let answered: Promise<void> = Promise.resolve();
    // No more requests are read once one asks to close (or fails), no more answers are written once one did.
    let closing = false;
    let ended = false;
    const send = (text: string, close: boolean) => {
      if (ended || socket.destroyed) return;
      if (close) {
        ended = true;
        closing = true;
        socket.end(text);
      } else {
        socket.write(text);
      }
    };
    socket.on('data', (data: Buffer) => {
      if (closing) return;
      received.push(data);
      receivedBytes += data.length;
      if (receivedBytes < need) return;
      let pending = received.length === 1 ? (received[0] as Buffer) : Buffer.concat(received, receivedBytes);
      received = [];
      receivedBytes = 0;
      try {
        for (;;) {
          const next = nextRequest(pending);
          if ('need' in next) {
            if (pending.length > 0) {
              received = [pending];
              receivedBytes = pending.length;
            }
            need = next.need;
            return;
          }
          pending = pending.subarray(next.end);
          closing = next.close;
          if (inFlight++ === 0) socket.setTimeout(0);
          answered = answered.then(() =>
            handler(next.request)
              .then(
                (answer) => send(responseText(answer, next.close), next.close),
                (error: unknown) =>
                  send(responseText({ status: 500, body: JSON.stringify({ message: String(error) }) }, true), true),
              )
              .finally(() => {
                if (--inFlight === 0) socket.setTimeout(idleTimeoutMs);
              }),
          );
          if (closing) return;
        }
      } catch (error) {
        closing = true;
        const status = error instanceof Malformed ? error.status : 400;
        const answer = { status, body: JSON.stringify({ message: REASONS[status] }) };
        answered = answered.then(() => send(responseText(answer, true), true));
      }
    });
  });
  return Object.assign(server, {
    closeAllConnections() {
      for (const socket of sockets) socket.destroy();
    },
  });
}
