/**
 * A minimal gRPC client over node:http2 for the block node's API: unary calls and server streams, messages
 * framed as gRPC does (1-byte compression flag, 4-byte big-endian length, payload), status from the trailers.
 * No compression is offered, so the server sends none. A message announced larger than `maxMessageBytes` is
 * refused before it is buffered.
 */
import http2 from 'node:http2';
import { FatalSourceError } from './block-source.ts';

export class GrpcStatusError extends Error {
  override readonly name = 'GrpcStatusError';
  readonly code: number;
  constructor(code: number, message: string) {
    super(`gRPC status ${code}${message ? `: ${message}` : ''}`);
    this.code = code;
  }
}

export interface GrpcTarget {
  readonly host: string;
  readonly port: number;
  readonly tls: boolean;
}

/** `blocknode://host:port[?tls=1]` → where to connect. */
export function parseBlockNodeUrl(url: string): GrpcTarget {
  const parsed = new URL(url);
  if (parsed.protocol !== 'blocknode:') throw new Error(`not a block node address: ${url}`);
  const tls = ['1', 'true'].includes(parsed.searchParams.get('tls') ?? '');
  return { host: parsed.hostname, port: Number(parsed.port || (tls ? 443 : 40840)), tls };
}

export function frame(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + payload.length);
  new DataView(out.buffer).setUint32(1, payload.length);
  out.set(payload, 5);
  return out;
}

/** Splits a byte stream into gRPC message payloads. */
export class FrameReader {
  private buffer: Buffer = Buffer.alloc(0);
  private readonly max: number;
  /** Set when the stream cannot go on; the messages before it are still returned first. */
  failure: FatalSourceError | undefined;
  constructor(maxMessageBytes: number) {
    this.max = maxMessageBytes;
  }

  push(chunk: Uint8Array): Uint8Array[] {
    this.buffer = this.buffer.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.buffer, chunk]);
    const out: Uint8Array[] = [];
    while (this.buffer.length >= 5 && !this.failure) {
      if (this.buffer[0] !== 0) {
        this.failure = new FatalSourceError('compressed gRPC message although none was accepted');
        break;
      }
      const length = this.buffer.readUInt32BE(1);
      if (length > this.max) {
        this.failure = new FatalSourceError(
          `message of ${length} bytes exceeds the ${this.max}-byte (${(this.max / 1048576).toFixed(0)} MiB) limit for block node responses`,
        );
        break;
      }
      if (this.buffer.length < 5 + length) break;
      out.push(new Uint8Array(this.buffer.subarray(5, 5 + length)));
      this.buffer = this.buffer.subarray(5 + length);
    }
    return out;
  }

  get pending(): number {
    return this.buffer.length;
  }
}

export class GrpcClient {
  private readonly target: GrpcTarget;
  private session: http2.ClientHttp2Session | undefined;

  constructor(target: GrpcTarget) {
    this.target = target;
  }

  get authority(): string {
    return `${this.target.tls ? 'https' : 'http'}://${this.target.host}:${this.target.port}`;
  }

  private connect(): http2.ClientHttp2Session {
    if (this.session && !this.session.closed && !this.session.destroyed) return this.session;
    const session = http2.connect(this.authority);
    // Errors surface on the request streams; an idle session's error must not crash the process.
    session.on('error', () => {});
    this.session = session;
    return session;
  }

  /** Drops the connection; the next call opens a new one. */
  close(): void {
    this.session?.destroy();
    this.session = undefined;
  }

  async *serverStream(
    path: string,
    request: Uint8Array,
    maxMessageBytes: number,
    signal?: AbortSignal,
  ): AsyncGenerator<Uint8Array> {
    const session = this.connect();
    const stream = session.request({
      ':method': 'POST',
      ':path': path,
      'content-type': 'application/grpc',
      te: 'trailers',
    });
    let status: { code: number; message: string } | undefined;
    const takeStatus = (headers: http2.IncomingHttpHeaders) => {
      const code = headers['grpc-status'];
      if (code !== undefined) {
        const message = headers['grpc-message'];
        status = { code: Number(code), message: decodeURIComponent(String(message ?? '')) };
      }
    };
    stream.on('response', takeStatus);
    stream.on('trailers', takeStatus);
    const abort = () => stream.close(http2.constants.NGHTTP2_CANCEL);
    signal?.addEventListener('abort', abort);
    stream.end(frame(request));
    const reader = new FrameReader(maxMessageBytes);
    try {
      for await (const chunk of stream) {
        for (const message of reader.push(chunk as Buffer)) yield message;
        if (reader.failure) throw reader.failure;
      }
      if (signal?.aborted) return;
      if (reader.pending > 0) throw new Error('stream ended inside a message');
      if (!status) throw new Error('stream ended without a gRPC status');
      if (status.code !== 0) throw new GrpcStatusError(status.code, status.message);
    } finally {
      signal?.removeEventListener('abort', abort);
      if (!stream.closed) stream.close(http2.constants.NGHTTP2_CANCEL);
    }
  }

  async unary(path: string, request: Uint8Array, maxMessageBytes: number): Promise<Uint8Array> {
    let response: Uint8Array | undefined;
    for await (const message of this.serverStream(path, request, maxMessageBytes)) response ??= message;
    if (!response) throw new Error(`${path} answered no message`);
    return response;
  }
}
