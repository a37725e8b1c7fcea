/**
 * A block node for tests: a gRPC server over HTTP/2 on 127.0.0.1 that serves `subscribeBlockStream` and
 * `serverStatus` from a map of blocks (serialized items), splitting each block over two BlockItemSets. Faults
 * fire once each: a connection dropped in the middle of a block, a skipped block (a gap), a block sent twice,
 * and a block delivered as one message over the 36 MiB limit.
 */
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { blockTypes } from '../../proto/block.ts';
import { FrameReader, frame } from '../sources/grpc-client.ts';

export interface BlockNodeFaults {
  /** Drop the connection after the first item set of this block. */
  dropInside?: bigint;
  /** Send the block after this one in its place (once). */
  skip?: bigint;
  /** Send the block before this one again first (once). */
  repeatBefore?: bigint;
  /** Send this block as a single message larger than 36 MiB. */
  oversized?: bigint;
}

export interface BlockNodeServer {
  readonly url: string;
  readonly subscriptions: { start: bigint; end: bigint }[];
  close(): Promise<void>;
}

const STATUS = { SUCCESS: 1, INVALID_START_BLOCK_NUMBER: 4 } as const;

export async function startBlockNodeServer(
  blocks: ReadonlyMap<bigint, readonly Uint8Array[]>,
  faults: BlockNodeFaults = {},
): Promise<BlockNodeServer> {
  const types = blockTypes();
  const pending = { ...faults };
  const subscriptions: { start: bigint; end: bigint }[] = [];
  const numbers = [...blocks.keys()].sort((a, b) => (a < b ? -1 : 1));
  const server = http2.createServer();
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
    session.on('error', () => {});
  });
  server.on('stream', (stream, headers) => {
    stream.on('error', () => {});
    const reader = new FrameReader(1 << 20);
    const chunks: Uint8Array[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(...reader.push(chunk)));
    stream.on('end', () => {
      const request = chunks[0] ?? new Uint8Array();
      const send = async (message: Uint8Array) => {
        if (!stream.write(frame(message))) await new Promise((resolve) => stream.once('drain', resolve));
      };
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      if (headers[':path'] === '/org.hiero.block.api.BlockNodeService/serverStatus') {
        const status = types.ServerStatusResponse.encode({
          first_available_block: Number(numbers[0] ?? 0n),
          last_available_block: Number(numbers.at(-1) ?? 0n),
        }).finish();
        void send(status).then(() => stream.end());
        return;
      }
      void subscribe(request, stream, send).catch(() => stream.destroy());
    });
  });

  const response = (value: Record<string, unknown>) => types.SubscribeStreamResponse.encode(value).finish();

  async function subscribe(
    request: Uint8Array,
    stream: http2.ServerHttp2Stream,
    send: (message: Uint8Array) => Promise<void>,
  ): Promise<void> {
    const decoded = types.SubscribeStreamRequest.toObject(types.SubscribeStreamRequest.decode(request), {
      longs: String,
    });
    const start = BigInt(decoded.start_block_number ?? '0');
    const end = BigInt(decoded.end_block_number ?? '0');
    subscriptions.push({ start, end });
    if (!blocks.has(start)) {
      await send(response({ status: STATUS.INVALID_START_BLOCK_NUMBER }));
      stream.end();
      return;
    }
    const sendBlock = async (number: bigint) => {
      const items = blocks.get(number) ?? [];
      if (pending.oversized === number) {
        pending.oversized = undefined;
        await send(response({ block_items: { block_items: [new Uint8Array(37 * 1024 * 1024)] } }));
        return;
      }
      const half = Math.max(1, Math.floor(items.length / 2));
      await send(response({ block_items: { block_items: items.slice(0, half) } }));
      if (pending.dropInside === number) {
        pending.dropInside = undefined;
        stream.session?.destroy();
        throw new Error('dropped');
      }
      await send(response({ block_items: { block_items: items.slice(half) } }));
      await send(response({ end_of_block: { block_number: Number(number) } }));
    };
    for (let number = start; number <= end && blocks.has(number); number++) {
      if (stream.destroyed) return;
      if (pending.repeatBefore === number && blocks.has(number - 1n)) {
        pending.repeatBefore = undefined;
        await sendBlock(number - 1n);
      }
      if (pending.skip === number && blocks.has(number + 1n)) {
        pending.skip = undefined;
        await sendBlock(number + 1n);
        number++;
        continue;
      }
      await sendBlock(number);
    }
    await send(response({ status: STATUS.SUCCESS }));
    stream.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `blocknode://127.0.0.1:${port}`,
    subscriptions,
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      }),
  };
}
