/**
 * One unary gRPC call over HTTP/2 without TLS (h2c with prior knowledge, as a consensus node's plaintext port speaks
 * it), on a socket the caller opens (`cloudflare:sockets` in the Worker, a Node socket in tests): the connection
 * preface and settings, the request's HEADERS and DATA, then frames are read until the call's stream ends, answering
 * the server's SETTINGS and PING and honouring its flow-control window. The outcome is the response message, or the
 * failure named as grpc-go names it (`code`, `desc`), which is what the reference's SDK reports.
 */
import { concatBytes } from '../../common/concat-bytes.ts';
import { encodeHeaders, type HeaderField, HpackDecoder, HpackError } from './hpack.ts';

export interface DuplexSocket {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
  /** Settles once the connection is made (rejects when it cannot be). */
  readonly opened: Promise<unknown>;
  close(): Promise<void>;
}

export type SocketOpener = (host: string, port: number) => DuplexSocket;

export interface UnaryCall {
  readonly open: SocketOpener;
  readonly host: string;
  readonly port: number;
  /** `/package.Service/method`. */
  readonly path: string;
  readonly message: Uint8Array;
  readonly deadlineMs: number;
}

/** grpc-go's status code names (`codes.Code.String()`), by number. */
const CODE_NAMES = [
  'OK',
  'Canceled',
  'Unknown',
  'InvalidArgument',
  'DeadlineExceeded',
  'NotFound',
  'AlreadyExists',
  'PermissionDenied',
  'ResourceExhausted',
  'FailedPrecondition',
  'Aborted',
  'OutOfRange',
  'Unimplemented',
  'Internal',
  'Unavailable',
  'DataLoss',
  'Unauthenticated',
] as const;

export type GrpcCode = (typeof CODE_NAMES)[number];

export type UnaryResult =
  | { readonly ok: true; readonly message: Uint8Array }
  | { readonly ok: false; readonly code: GrpcCode; readonly desc: string };

const PREFACE = new TextEncoder().encode('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
const DATA = 0;
const HEADERS = 1;
const RST_STREAM = 3;
const SETTINGS = 4;
const PING = 6;
const GOAWAY = 7;
const WINDOW_UPDATE = 8;
const CONTINUATION = 9;
const END_STREAM = 0x1;
const ACK = 0x1;
const END_HEADERS = 0x4;
const PADDED = 0x8;
const PRIORITY = 0x20;
const STREAM = 1;
const DEFAULT_WINDOW = 65_535;
const DEFAULT_MAX_FRAME = 16_384;

/** HTTP/2 error codes (RFC 9113, 7) as grpc-go names them in a reset stream's message, with the code it maps to. */
const RESET_CODES: readonly (readonly [string, GrpcCode])[] = [
  ['NO_ERROR', 'Internal'],
  ['PROTOCOL_ERROR', 'Internal'],
  ['INTERNAL_ERROR', 'Internal'],
  ['FLOW_CONTROL_ERROR', 'Internal'],
  ['SETTINGS_TIMEOUT', 'Internal'],
  ['STREAM_CLOSED', 'Internal'],
  ['FRAME_SIZE_ERROR', 'Internal'],
  ['REFUSED_STREAM', 'Unavailable'],
  ['CANCEL', 'Canceled'],
  ['COMPRESSION_ERROR', 'Internal'],
  ['CONNECT_ERROR', 'Internal'],
  ['ENHANCE_YOUR_CALM', 'ResourceExhausted'],
  ['INADEQUATE_SECURITY', 'PermissionDenied'],
  ['HTTP_1_1_REQUIRED', 'Internal'],
];

/** grpc-go's code for a response that is not HTTP 200. */
function httpStatusCode(status: number): GrpcCode {
  if (status === 400) return 'Internal';
  if (status === 401) return 'Unauthenticated';
  if (status === 403) return 'PermissionDenied';
  if (status === 404) return 'Unimplemented';
  return status === 429 || status === 502 || status === 503 || status === 504 ? 'Unavailable' : 'Unknown';
}

function frame(type: number, flags: number, stream: number, payload: Uint8Array = new Uint8Array()): Uint8Array {
  const out = new Uint8Array(9 + payload.length);
  out[0] = payload.length >>> 16;
  out[1] = (payload.length >>> 8) & 0xff;
  out[2] = payload.length & 0xff;
  out[3] = type;
  out[4] = flags;
  new DataView(out.buffer).setUint32(5, stream);
  out.set(payload, 9);
  return out;
}

const fail = (code: GrpcCode, desc: string): UnaryResult => ({ ok: false, code, desc });

/** `grpc-message` is percent-encoded (gRPC over HTTP/2: Responses). */
function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The call's outcome from its response headers, trailers and DATA payloads. */
function outcome(headers: HeaderField[], trailers: HeaderField[], data: Uint8Array): UnaryResult {
  const header = (fields: HeaderField[], name: string) => fields.find(([n]) => n === name)?.[1];
  const status = Number(header(headers, ':status'));
  if (status !== 200) {
    return fail(httpStatusCode(status), `unexpected HTTP status code received from server: ${status}`);
  }
  const grpcStatus = header(trailers, 'grpc-status');
  if (grpcStatus === undefined) return fail('Internal', 'server closed the stream without sending trailers');
  const code = CODE_NAMES[Number(grpcStatus)] ?? 'Unknown';
  if (code !== 'OK') return fail(code, percentDecoded(header(trailers, 'grpc-message') ?? ''));
  if (data.length < 5) return fail('Internal', 'grpc: server returned no message');
  if (data[0] !== 0) return fail('Internal', 'grpc: compressed flag set with identity or empty encoding');
  const length = new DataView(data.buffer, data.byteOffset).getUint32(1);
  return { ok: true, message: data.slice(5, 5 + length) };
}

/** Makes the call; resolves with its outcome, never rejects. */
export async function unaryCall(call: UnaryCall): Promise<UnaryResult> {
  let socket: DuplexSocket | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<UnaryResult>((resolve) => {
    timer = setTimeout(() => resolve(fail('DeadlineExceeded', 'context deadline exceeded')), call.deadlineMs);
  });
  const run = async (): Promise<UnaryResult> => {
    try {
      socket = call.open(call.host, call.port);
      await socket.opened;
    } catch {
      return fail(
        'Unavailable',
        `connection error: desc = "transport: Error while dialing: dial tcp ${call.host}:${call.port}: connect: connection refused"`,
      );
    }
    return exchange(socket, call);
  };
  try {
    return await Promise.race([run(), deadline]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    await socket?.close().catch(() => undefined);
  }
}

async function exchange(socket: DuplexSocket, call: UnaryCall): Promise<UnaryResult> {
  const writer = socket.writable.getWriter();
  const reader = socket.readable.getReader();
  const decoder = new HpackDecoder();
  let connectionWindow = DEFAULT_WINDOW;
  let streamWindow = DEFAULT_WINDOW;
  let maxFrame = DEFAULT_MAX_FRAME;
  let buffer = new Uint8Array();
  const headerBlocks: HeaderField[][] = [];
  let pendingBlock: Uint8Array[] | undefined;
  let pendingEnd = false;
  const data: Uint8Array[] = [];
  let ended = false;
  let failure: UnaryResult | undefined;

  /** Reads one chunk and handles every whole frame in the buffer; false once the socket has ended. */
  const pump = async (): Promise<boolean> => {
    const { value, done } = await reader.read();
    if (done) return false;
    const joined = new Uint8Array(buffer.length + value.length);
    joined.set(buffer);
    joined.set(value, buffer.length);
    buffer = joined;
    while (buffer.length >= 9) {
      const length = (buffer[0] as number) * 65_536 + (buffer[1] as number) * 256 + (buffer[2] as number);
      if (buffer.length < 9 + length) break;
      const type = buffer[3] as number;
      const flags = buffer[4] as number;
      const stream = new DataView(buffer.buffer, buffer.byteOffset).getUint32(5) & 0x7fffffff;
      let payload = buffer.slice(9, 9 + length);
      buffer = buffer.slice(9 + length);
      if (type === SETTINGS && !(flags & ACK)) {
        for (let at = 0; at + 6 <= payload.length; at += 6) {
          const view = new DataView(payload.buffer, payload.byteOffset + at);
          const id = view.getUint16(0);
          const setting = view.getUint32(2);
          if (id === 4) streamWindow += setting - DEFAULT_WINDOW;
          if (id === 5) maxFrame = setting;
        }
        await writer.write(frame(SETTINGS, ACK, 0));
      } else if (type === PING && !(flags & ACK)) {
        await writer.write(frame(PING, ACK, 0, payload));
      } else if (type === WINDOW_UPDATE) {
        const increment = new DataView(payload.buffer, payload.byteOffset).getUint32(0) & 0x7fffffff;
        if (stream === 0) connectionWindow += increment;
        else if (stream === STREAM) streamWindow += increment;
      } else if (type === GOAWAY) {
        const last = new DataView(payload.buffer, payload.byteOffset).getUint32(0) & 0x7fffffff;
        if (last < STREAM) failure = fail('Unavailable', 'the connection is draining');
      } else if (stream === STREAM && type === RST_STREAM) {
        const code = new DataView(payload.buffer, payload.byteOffset).getUint32(0);
        const [name, grpcCode] = RESET_CODES[code] ?? [`${code}`, 'Internal'];
        failure = fail(grpcCode, `stream terminated by RST_STREAM with error code: ${name}`);
      } else if (stream === STREAM && (type === HEADERS || type === CONTINUATION || type === DATA)) {
        if (flags & PADDED && type !== CONTINUATION) {
          payload = payload.subarray(1, payload.length - (payload[0] as number));
        }
        if (type === DATA) data.push(payload);
        else {
          if (type === HEADERS) {
            pendingBlock = [flags & PRIORITY ? payload.subarray(5) : payload];
            pendingEnd = (flags & END_STREAM) !== 0;
          } else pendingBlock?.push(payload);
          if (flags & END_HEADERS && pendingBlock) {
            headerBlocks.push(decoder.decode(concatBytes(pendingBlock)));
            pendingBlock = undefined;
            if (pendingEnd) ended = true;
          }
        }
        if (type === DATA && flags & END_STREAM) ended = true;
      }
    }
    return true;
  };

  try {
    await writer.write(PREFACE);
    // No server push; a window large enough that the response never waits for an update.
    await writer.write(frame(SETTINGS, 0, 0, Uint8Array.from([0, 2, 0, 0, 0, 0, 0, 4, 0, 0x10, 0, 0])));
    const headers = encodeHeaders([
      [':method', 'POST'],
      [':scheme', 'http'],
      [':path', call.path],
      [':authority', `${call.host}:${call.port}`],
      ['content-type', 'application/grpc'],
      ['te', 'trailers'],
      ['grpc-timeout', `${Math.max(1, Math.ceil(call.deadlineMs))}m`],
    ]);
    await writer.write(frame(HEADERS, END_HEADERS, STREAM, headers));
    const body = new Uint8Array(5 + call.message.length);
    new DataView(body.buffer).setUint32(1, call.message.length);
    body.set(call.message, 5);
    let sent = 0;
    while (sent < body.length) {
      const room = Math.min(connectionWindow, streamWindow, maxFrame, body.length - sent);
      if (room <= 0) {
        if (!(await pump())) return fail('Unavailable', 'error reading from server: EOF');
        if (failure) return failure;
        continue;
      }
      const last = sent + room === body.length;
      await writer.write(frame(DATA, last ? END_STREAM : 0, STREAM, body.subarray(sent, sent + room)));
      connectionWindow -= room;
      streamWindow -= room;
      sent += room;
      if (last) break;
    }
    while (!ended && !failure) {
      if (!(await pump())) return fail('Unavailable', 'error reading from server: EOF');
    }
    if (failure) return failure;
    const [responseHeaders = [], trailers = responseHeaders] = headerBlocks;
    return outcome(responseHeaders, trailers, concatBytes(data));
  } catch (error) {
    if (error instanceof HpackError) return fail('Internal', `transport: ${error.message}`);
    return fail('Unavailable', 'error reading from server: EOF');
  }
}
